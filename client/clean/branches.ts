// Finds and removes `taskloop/*` branches that hold no commit of their own: a branch whose tip another ref outside
// taskloop/* also reaches. A branch with a unique commit, or one a worktree has checked out, is always kept.
import { execa } from 'execa';

const PREFIX = 'refs/heads/taskloop/';

export interface BranchVerdict {
  branch: string;
  tip: string;
  action: 'remove' | 'keep';
  why: string;
}

/** Git with hooks and fsmonitor off, so a user's hook never runs (or blocks) during a clean. */
async function git(repo: string, args: string[]): Promise<string> {
  const result = await execa('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', ...args], {
    cwd: repo,
  });
  return result.stdout;
}

async function checkedOutBranches(repo: string): Promise<Map<string, string>> {
  const porcelain = await git(repo, ['worktree', 'list', '--porcelain']);
  const byRef = new Map<string, string>();
  let worktree = '';
  for (const line of porcelain.split('\n')) {
    if (line.startsWith('worktree ')) worktree = line.slice('worktree '.length);
    if (line.startsWith('branch ')) byRef.set(line.slice('branch '.length), worktree);
  }
  return byRef;
}

/** What `taskloop clean` would do with each taskloop branch of `repo`. */
export async function judgeBranches(repo: string): Promise<BranchVerdict[]> {
  const listing = await git(repo, ['for-each-ref', '--format=%(objectname) %(refname)', PREFIX]);
  const checkedOut = await checkedOutBranches(repo);
  const verdicts: BranchVerdict[] = [];
  for (const line of listing.split('\n').filter(Boolean)) {
    const [tip = '', ref = ''] = line.split(' ');
    const branch = ref.slice('refs/heads/'.length);
    const worktree = checkedOut.get(ref);
    if (worktree !== undefined) {
      verdicts.push({ branch, tip, action: 'keep', why: `checked out in ${worktree}` });
      continue;
    }
    // Refs whose history holds the tip; any outside taskloop/* means the branch holds nothing of its own.
    const holders = (await git(repo, ['for-each-ref', '--contains', tip, '--format=%(refname)']))
      .split('\n')
      .filter(Boolean);
    const other = holders.find((holder) => !holder.startsWith(PREFIX));
    verdicts.push(
      other === undefined
        ? { branch, tip, action: 'keep', why: 'holds a commit no other ref holds' }
        : {
            branch,
            tip,
            action: 'remove',
            why: `no commit of its own (its tip is in ${other.replace(/^refs\/(heads|tags)\//, '')})`,
          },
    );
  }
  return verdicts;
}

/** Deletes a branch only if it still points at the tip that was judged (update-ref checks the old value). */
export async function removeBranch(repo: string, verdict: BranchVerdict): Promise<void> {
  await git(repo, ['update-ref', '-d', `refs/heads/${verdict.branch}`, verdict.tip]);
}
