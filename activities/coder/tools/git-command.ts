// Read-only git for the coder's tools: argv only, bounded output, never throws for a git error. It runs as the rest of
// taskloop's git after repository code ran: the attempt's recorded git folder named explicitly and no work tree (the
// worktree is data: activities/git/tree-git.ts), no setting that runs a program, and none of the worker's environment.
// `git grep` searches a snapshot of the worktree (a tree built from its bytes), never the worktree itself.
import { readRecordedBase } from '../../git/create-worktree.js';
import { GitError } from '../../git/git-error.js';
import { snapshotWorktree } from '../../git/snapshot-tree.js';
import { withTreeGit, type TreeGit } from '../../git/tree-git.js';

const MAX_OUTPUT_BYTES = 4_000_000;

export interface GitReply {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs `git <args>` on the git folder of the worktree at `root` (objects and refs only); a failing git is a value. */
export async function runReadOnlyGit(root: string, args: string[]): Promise<GitReply> {
  try {
    const out = await withTreeGit(root, (git) => (args[0] === 'grep' ? grepSnapshot(git, root, args) : git.run(args)));
    return { exitCode: 0, stdout: out.subarray(0, MAX_OUTPUT_BYTES).toString('utf8'), stderr: '' };
  } catch (error) {
    if (error instanceof GitError) return { exitCode: error.exitCode ?? 128, stdout: '', stderr: error.message };
    throw error;
  }
}

/** `git grep <options> -- <paths>` over a snapshot of the worktree, its lines named by path as a worktree grep's are. */
async function grepSnapshot(git: TreeGit, root: string, args: string[]): Promise<Buffer> {
  const base = (await readRecordedBase(root)) ?? (await git.text(['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
  const { treeSha } = await snapshotWorktree({ worktreePath: root, baseSha: base });
  const dash = args.indexOf('--');
  const options = args.slice(1, dash === -1 ? undefined : dash);
  const paths = dash === -1 ? [] : args.slice(dash + 1);
  const out = await git.run(['grep', ...options, treeSha, '--', ...paths]);
  // Each match line starts with `<tree>:`; -z puts a NUL after the whole name, so the prefix is all that goes.
  const prefix = `${treeSha}:`;
  const text = out.toString('utf8');
  return Buffer.from(
    text
      .split('\n')
      .map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line))
      .join('\n'),
  );
}

/** The first lines of `text` up to `maxChars`, with a note saying how to see the rest when cut. */
export function boundText(text: string, maxChars: number, more: string): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  return `${cut.slice(0, Math.max(cut.lastIndexOf('\n'), 0) || maxChars)}\n... output cut at ${maxChars} characters; ${more}`;
}
