// Names the branch that keeps a run's commit: created at commit time, never reset, never force-moved.
import type { SimpleGit } from 'simple-git';
import { tryGit } from './run-git.js';

/** The name of the n-th run's branch of a task: `taskloop/<id>`, then `taskloop/<id>-run2`, `-run3`, … */
export function runBranchName(preferred: string, n: number): string {
  return n <= 1 ? preferred : `${preferred}-run${n}`;
}

// Enough for years of hourly scheduled runs of one task id; beyond it something is wrong.
const maxRuns = 100_000;

/**
 * A branch that holds `sha`: an existing `preferred` or `preferred-runN` branch already pointing at it (a retried
 * commit), else a new branch under the first free of those names. An existing branch is never moved, so an earlier
 * run's commit stays on its own branch.
 */
export async function branchForCommit(
  git: SimpleGit,
  sha: string,
  preferred: string,
  reflogMessage: string,
): Promise<string> {
  // The common case, a task id's first run: one process.
  if (await createBranch(git, preferred, sha, reflogMessage)) return preferred;
  for (let tries = 0; tries < 3; tries += 1) {
    const taken = await listRunBranches(git, preferred);
    const holding = [...taken].find(([, target]) => target === sha);
    if (holding) return holding[0];
    let n = 1;
    while (taken.has(runBranchName(preferred, n)) && n < maxRuns) n += 1;
    const name = runBranchName(preferred, n);
    if (await createBranch(git, name, sha, reflogMessage)) return name;
  }
  throw new Error(
    `could not create a branch for commit ${sha} under ${preferred}: its names kept being taken concurrently`,
  );
}

/** Creates branch `name` at `sha` unless it exists: the empty old value makes a concurrent creator of the name lose. */
async function createBranch(git: SimpleGit, name: string, sha: string, reflogMessage: string): Promise<boolean> {
  return (await tryGit(git, ['update-ref', '-m', reflogMessage, `refs/heads/${name}`, sha, ''])) !== undefined;
}

/** Branch name → tip sha of `preferred` and its `-runN` siblings. */
async function listRunBranches(git: SimpleGit, preferred: string): Promise<Map<string, string>> {
  const out = await git.raw([
    'for-each-ref',
    '--format=%(objectname) %(refname)',
    `refs/heads/${preferred}`,
    `refs/heads/${preferred}-run*`,
  ]);
  const branches = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [target, ref] = line.trim().split(' ');
    if (target && ref?.startsWith('refs/heads/')) branches.set(ref.slice('refs/heads/'.length), target);
  }
  return branches;
}
