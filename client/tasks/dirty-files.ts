// Uncommitted changes in the repository a task starts from: the worktree is made from a commit, so an edit the
// user has not committed would silently be left out of the task.
import { execa } from 'execa';

/** Tracked files with staged or unstaged changes, when `baseRef` is the commit checked out; [] otherwise. */
export async function uncommittedFiles(repo: string, baseRef: string): Promise<string[]> {
  const [head, base] = await Promise.all(
    ['HEAD', baseRef].map((ref) =>
      execa('git', ['-C', repo, 'rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { reject: false }),
    ),
  );
  // Another branch or tag: the checkout's edits are not what the task starts from.
  if (head?.failed || base?.failed || head?.stdout !== base?.stdout) return [];
  const status = await execa(
    'git',
    ['-C', repo, '-c', 'core.quotePath=false', 'status', '--porcelain=v1', '-z', '--untracked-files=no'],
    { reject: false },
  );
  if (status.failed) return [];
  // -z entries: "XY path", a rename adds its old path as the next entry.
  const entries = String(status.stdout).split('\0').filter(Boolean);
  const files: string[] = [];
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i] as string;
    files.push(entry.slice(3));
    if (entry[0] === 'R' || entry[0] === 'C') i += 1;
  }
  return files;
}

/** "a.py, b.py and 3 more". */
export function listFiles(files: string[], shown = 5): string {
  const head = files.slice(0, shown).join(', ');
  return files.length > shown ? `${head} and ${files.length - shown} more` : head;
}
