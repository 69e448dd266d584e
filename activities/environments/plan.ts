// What an environment is built from, and its key: the repository, the set-up lines (written, or `auto`'s, read from
// the dependency files), those files' contents at the base commit and the interpreter. Files are read from the
// repository's object store at the base, never from a worktree: what the key says is what the commit holds.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { dependencyFilesOf, environmentFields, planAutoSetup, type EnvironmentSpec } from '../../domain/environment.js';
import { isRepoUrl } from '../../domain/repo-url.js';
import { openGit } from '../git/run-git.js';
import { resolveInterpreter } from './interpreter.js';

export { setupFailure } from './setup-failure.js';

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
  /** The environment cache: an interpreter there (or in the work or state folder) is refused. */
  cacheDir: string;
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
  // The task's value is checked against the worker's interpreters; the worker's own setting is its choice.
  const interpreter = await resolveInterpreter(fields.python ?? input.defaultPython ?? 'python3', {
    field: fields.python ? 'environment.python' : input.defaultPython ? 'TASKLOOP_PYTHON' : 'the default interpreter',
    cacheDir: input.cacheDir,
  });
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
