// Names the branch that keeps a run's commit: created at commit time, never reset, never force-moved. For a
// repository by URL the names already on the remote count as taken too, so another host's branch is never reused.
import path from 'node:path';
import { redactUrls } from '../../domain/repo-url.js';
import { chooseRunBranch, isRunBranch } from '../../domain/run-branches.js';
import { readSmallFile } from '../small-files.js';
import { worktreeError } from './failures.js';
import { cachedClonePath, remoteEnv } from './repo-cache.js';
import { openGit, privateGitDir, tryGit, type Git } from './run-git.js';

export { runBranchName } from '../../domain/run-branches.js';

/**
 * A branch that holds `sha`: an existing `preferred` or `preferred-runN` branch already pointing at it (a retried
 * commit), else a new branch under the first name free here and, when `worktreePath` belongs to this host's clone of a
 * URL, on the remote. An existing branch is never moved, so an earlier run's commit stays on its own branch.
 */
export async function branchForCommit(
  git: Git,
  sha: string,
  preferred: string,
  reflogMessage: string,
  worktreePath?: string,
): Promise<string> {
  const clone = worktreePath === undefined ? undefined : await cloneOfUrl(worktreePath);
  const remote = clone === undefined ? undefined : await listRemoteRunBranches(clone, preferred);
  // The common case for a local repository, a task id's first run: one process.
  if (!remote && (await createBranch(git, preferred, sha, reflogMessage))) return preferred;
  for (let tries = 0; tries < 3; tries += 1) {
    const choice = chooseRunBranch({ preferred, sha, local: await listRunBranches(git, preferred), remote });
    if (!choice.create) return choice.name;
    if (await createBranch(git, choice.name, sha, reflogMessage)) return choice.name;
  }
  throw new Error(
    `could not create a branch for commit ${sha} under ${preferred}: its names kept being taken concurrently`,
  );
}

/** Creates branch `name` at `sha` unless it exists: the empty old value makes a concurrent creator of the name lose. */
async function createBranch(git: Git, name: string, sha: string, reflogMessage: string): Promise<boolean> {
  return (await tryGit(git, ['update-ref', '-m', reflogMessage, `refs/heads/${name}`, sha, ''])) !== undefined;
}

/** Branch name → tip sha of `preferred` and its `-runN` siblings. */
async function listRunBranches(git: Git, preferred: string): Promise<Map<string, string>> {
  const out = await git.raw([
    'for-each-ref',
    '--format=%(objectname) %(refname)',
    `refs/heads/${preferred}`,
    `refs/heads/${preferred}-run*`,
  ]);
  return readRefs(out, ' ', preferred);
}

/**
 * The common git folder when the worktree belongs to this host's clone of a URL (the folder `cachedClonePath` names
 * for its origin); undefined for a local repository, whose origin taskloop never pushes to. Files first: no git
 * process for a local repository.
 */
async function cloneOfUrl(worktreePath: string): Promise<string | undefined> {
  const privateDir = await privateGitDir(worktreePath);
  if (!privateDir) return undefined;
  const relative = (readSmallFile(path.join(privateDir, 'commondir')) ?? '../..').trim();
  const common = path.resolve(privateDir, relative);
  if (path.basename(path.dirname(common)) !== 'repos') return undefined;
  const url = (await tryGit(openGit(common), ['config', '--get', 'remote.origin.url']))?.trim();
  return url && cachedClonePath(path.dirname(path.dirname(common)), url) === common ? common : undefined;
}

/** The run branches of `preferred` on the clone's remote; a remote that does not answer is a retryable failure. */
async function listRemoteRunBranches(clone: string, preferred: string): Promise<Map<string, string>> {
  try {
    const out = await openGit(clone).env(remoteEnv).raw(['ls-remote', '--heads', 'origin']);
    return readRefs(out, '\t', preferred);
  } catch (error) {
    throw worktreeError('ls-remote', redactUrls(error instanceof Error ? error.message : String(error)));
  }
}

/** Lines of `<sha><separator>refs/heads/<name>` → the run branches of `preferred` among them. */
function readRefs(out: string, separator: string, preferred: string): Map<string, string> {
  const branches = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [target, ref] = line.trim().split(separator);
    if (!target || !ref?.startsWith('refs/heads/')) continue;
    const name = ref.slice('refs/heads/'.length);
    if (isRunBranch(preferred, name)) branches.set(name, target);
  }
  return branches;
}
