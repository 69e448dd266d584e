// What an environment is built from, and its key: the repository, the set-up lines (written, or `auto`'s, read from
// the dependency files), those files' contents at the base commit and the interpreter. Files are read from the
// repository's object store at the base, never from a worktree: what the key says is what the commit holds.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { execa } from 'execa';
import { dependencyFilesOf, environmentFields, planAutoSetup, type EnvironmentSpec } from '../../domain/environment.js';
import { isRepoUrl } from '../../domain/repo-url.js';
import { openGit } from '../git/run-git.js';

export interface EnvironmentPlan {
  key: string;
  /** The cache folder's name: `<repository name>-<key>`. */
  name: string;
  repo: string;
  repoPath: string;
  baseSha: string;
  setup: string[];
  files: Record<string, string>;
  interpreter: { path: string; version: string };
  installer: string;
  timeoutMs?: number;
}

export const setupFailure = (message: string) =>
  ApplicationFailure.create({ type: 'EnvironmentSetupFailed', nonRetryable: true, message });

/** One `git ls-tree` line: mode, type, blob id, path. */
function parseTree(text: string): { id: string; file: string; type: string }[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [meta = '', file = ''] = line.split('\t');
      const [, type = '', id = ''] = meta.split(' ');
      return { id, file, type };
    });
}

/** The dependency files at `baseSha` (or the named ones) with their blob ids; `absent` for a named one not there. */
async function readDependencyFiles(
  repoPath: string,
  baseSha: string,
  named: string[] | undefined,
): Promise<Record<string, string>> {
  const git = openGit(repoPath);
  const listed = named
    ? parseTree(await git.raw(['ls-tree', '--full-tree', baseSha, '--', ...named]))
    : [
        ...parseTree(await git.raw(['ls-tree', '--full-tree', baseSha])),
        ...parseTree(await git.raw(['ls-tree', '--full-tree', baseSha, '--', 'requirements/'])),
      ];
  const blobs = new Map(listed.filter((entry) => entry.type === 'blob').map((entry) => [entry.file, entry.id]));
  const files = named ?? dependencyFilesOf([...blobs.keys()]);
  return Object.fromEntries(files.map((file) => [file, blobs.get(file) ?? 'absent']));
}

const probeScript = 'import sys, json; print(json.dumps([sys.executable, sys.version.split()[0]]))';

/** The interpreter's real path and version, as the host's PATH finds `program`. */
export async function probeInterpreter(program: string): Promise<{ path: string; version: string }> {
  const result = await execa(program, ['-I', '-c', probeScript], { reject: false, cwd: '/' });
  if (result.exitCode !== 0) {
    throw setupFailure(
      `environment.python ${JSON.stringify(program)} could not be run on this worker (${result.code ?? `exit ${result.exitCode}`}): ` +
        'name an installed interpreter (a program on PATH or an absolute path), or leave the field out for the worker’s python3',
    );
  }
  const [executable, version] = JSON.parse(String(result.stdout)) as [string, string];
  return { path: realpathSync(executable), version };
}

/** The repository as the key names it: a URL as written, a local path made absolute. */
export const repoIdentity = (repo: string) => (isRepoUrl(repo) ? repo : path.resolve(repo));

const repoName = (repo: string) =>
  (path.basename(repo.replace(/\/+$/, '')).replace(/\.git$/, '') || 'repo').replace(/[^A-Za-z0-9._-]/g, '_');

/** Reads what the key is made of and computes it. */
export async function planEnvironment(input: {
  repo: string;
  /** The repository's local folder (the task's, or this host's clone of a URL). */
  repoPath: string;
  baseSha: string;
  spec: EnvironmentSpec;
  installer: string;
  defaultPython?: string;
}): Promise<EnvironmentPlan> {
  const fields = environmentFields(input.spec);
  const files = await readDependencyFiles(input.repoPath, input.baseSha, fields.files);
  let setup = fields.setup;
  if (!setup) {
    const git = openGit(input.repoPath);
    const contents: Record<string, string> = {};
    for (const [file, id] of Object.entries(files)) {
      if (id !== 'absent') contents[file] = await git.raw(['cat-file', 'blob', id]);
    }
    setup = planAutoSetup(contents);
  }
  const interpreter = await probeInterpreter(fields.python ?? input.defaultPython ?? 'python3');
  const repo = repoIdentity(input.repo);
  const key = createHash('sha256')
    .update(JSON.stringify({ repo, setup, files, interpreter, installer: input.installer }))
    .digest('hex')
    .slice(0, 16);
  return {
    key,
    name: `${repoName(repo)}-${key}`,
    repo,
    repoPath: input.repoPath,
    baseSha: input.baseSha,
    setup,
    files,
    interpreter,
    installer: input.installer,
    ...(fields.timeoutMs === undefined ? {} : { timeoutMs: fields.timeoutMs }),
  };
}
