// Validates a task at the edge, before anything starts: the spec fields, the repository, the base ref and any
// scripted model file. Every problem is a UsageError naming the field, the value and the fix.
import { execa } from 'execa';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseScript } from '../../domain/model-script.js';
import { parseTaskSpec, type TaskSpec } from '../../domain/task-spec.js';
import { UsageError } from '../cli-errors.js';
import { refuseSecretsInTask } from './refuse-secrets.js';

export async function prepareTaskSpec(input: Record<string, unknown>, cwd: string): Promise<TaskSpec> {
  const parsed = parseTaskSpec(input);
  if (!parsed.success) throw new UsageError(`invalid task: ${parsed.error}`);
  refuseSecretsInTask(parsed.data);
  const spec = { ...parsed.data, repo: path.resolve(cwd, parsed.data.repo) };
  await checkRepository(spec.repo, spec.baseRef);
  spec.models = { ...spec.models };
  for (const role of ['coder', 'reviewer', 'judge', 'skillWriter'] as const) {
    const model = spec.models[role];
    if (model?.startsWith('scripted:')) spec.models[role] = `scripted:${await checkScriptFile(path.resolve(cwd, model.slice('scripted:'.length)), role)}`;
  }
  return spec;
}

async function checkRepository(repo: string, baseRef: string): Promise<void> {
  const gitDir = await execa('git', ['-C', repo, 'rev-parse', '--git-dir'], { reject: false });
  if (gitDir.failed) throw new UsageError(`repo: ${repo} is not a git repository; pass --repo with the path of a git repository (git init it first)`);
  const ref = await execa('git', ['-C', repo, 'rev-parse', '--verify', '--quiet', `${baseRef}^{commit}`], { reject: false });
  if (ref.failed) throw new UsageError(`baseRef: ${JSON.stringify(baseRef)} is not a commit in ${repo}; pass --base-ref with an existing branch, tag or sha`);
}

async function checkScriptFile(file: string, role: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new UsageError(`models.${role}: the scripted file ${file} does not exist; pass scripted:<path of a JSON file>`);
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
