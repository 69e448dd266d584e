// Validates a task at the edge, before anything starts: the spec fields, the repository, the base ref and any
// scripted model file. Every problem is a UsageError naming the field, the value and the fix.
import { execa } from 'execa';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseScript } from '../../domain/model-script.js';
import { isRepoUrl, redactUrls } from '../../domain/repo-url.js';
import { parseTaskSpec, type TaskSpec } from '../../domain/task-spec.js';
import { UsageError } from '../cli-errors.js';
import { listFiles, uncommittedFiles } from './dirty-files.js';
import { refuseSecretsInTask } from './refuse-secrets.js';

export interface PrepareOptions {
  /** Start even when the repository has uncommitted changes (they are left out; `warn` says so). */
  allowDirty?: boolean;
  warn?: (line: string) => void;
}

export async function prepareTaskSpec(
  input: Record<string, unknown>,
  cwd: string,
  options: PrepareOptions = {},
): Promise<TaskSpec> {
  const parsed = parseTaskSpec(input);
  if (!parsed.success) throw new UsageError(`invalid task: ${parsed.error}`);
  refuseSecretsInTask(parsed.data);
  const remote = isRepoUrl(parsed.data.repo);
  const spec = { ...parsed.data, repo: remote ? parsed.data.repo : path.resolve(cwd, parsed.data.repo) };
  await (remote ? checkRemote(spec.repo) : checkRepository(spec.repo, spec.baseRef));
  if (!remote) await checkCommitted(spec.repo, spec.baseRef, options);
  spec.models = { ...spec.models };
  for (const role of ['coder', 'reviewer', 'judge', 'skillWriter'] as const) {
    const model = spec.models[role];
    if (model?.startsWith('scripted:'))
      spec.models[role] = `scripted:${await checkScriptFile(path.resolve(cwd, model.slice('scripted:'.length)), role)}`;
  }
  return spec;
}

async function checkCommitted(repo: string, baseRef: string, options: PrepareOptions): Promise<void> {
  const files = await uncommittedFiles(repo, baseRef);
  if (files.length === 0) return;
  const what = `${repo} has uncommitted changes (${listFiles(files)}); the task starts from the commit ${baseRef}`;
  if (!options.allowDirty)
    throw new UsageError(
      `repo: ${what} and would leave them out: commit or stash them, or pass --allow-dirty to start without them`,
    );
  (options.warn ?? console.error)(`warning: ${what}, without them (--allow-dirty)`);
}

async function checkRepository(repo: string, baseRef: string): Promise<void> {
  const gitDir = await execa('git', ['-C', repo, 'rev-parse', '--git-dir'], { reject: false });
  if (gitDir.failed)
    throw new UsageError(
      `repo: ${repo} is not a git repository; pass --repo with the path of a git repository (git init it first)`,
    );
  const ref = await execa('git', ['-C', repo, 'rev-parse', '--verify', '--quiet', `${baseRef}^{commit}`], {
    reject: false,
  });
  if (ref.failed)
    throw new UsageError(
      `baseRef: ${JSON.stringify(baseRef)} is not a commit in ${repo}; pass --base-ref with an existing branch, tag or sha`,
    );
}

/** A repository by URL is cloned by each worker host; here only that it answers (the base ref is checked at claim). */
async function checkRemote(url: string): Promise<void> {
  const listed = await execa('git', ['ls-remote', '--quiet', url, 'HEAD'], {
    reject: false,
    env: { GIT_TERMINAL_PROMPT: '0' },
  });
  if (listed.failed) {
    const why = redactUrls(String(listed.stderr).trim().split('\n').pop() ?? '');
    throw new UsageError(
      `repo: ${redactUrls(url)} is not a reachable git repository (${why}); pass --repo with a git URL or path this machine can read`,
    );
  }
}

async function checkScriptFile(file: string, role: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new UsageError(
      `models.${role}: the scripted file ${file} does not exist; pass scripted:<path of a JSON file>`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`models.${role}: ${file} is not valid JSON (${(error as Error).message})`);
  }
  const result = parseScript(json);
  if (!result.success) throw new UsageError(`models.${role}: ${file}: ${result.error}`);
  return file;
}
