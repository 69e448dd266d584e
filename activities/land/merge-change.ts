// The merge step of a landing: the change merged onto the target's current head in the object store, with no work
// tree (`git merge-tree --write-tree`, then `git commit-tree`). The merge commit's dates are fixed by the caller, so
// a retried step makes the same commit.
import { GitError } from '../git/git-error.js';
import { shortBranch, type ConflictEvidence, type MergeFound } from '../../domain/landing.js';
import type { TreeGit } from '../git/tree-git.js';
import { isAncestor, readTargetHead, withLandingGit, type LandingRepo } from './landing-repo.js';

export interface MergeChangeInput extends LandingRepo {
  /** The change: the task's commit and its branch. */
  sha: string;
  branch: string;
  /** The merge commit's author and committer date (ISO): the request's time, so a retry makes the same commit. */
  date: string;
}

/** Merges the change onto the target's head: already there, a fast-forward, a merge commit, or a conflict. */
export async function mergeChange(input: MergeChangeInput): Promise<MergeFound> {
  return withLandingGit(input, async (git) => {
    const targetHead = await readTargetHead(git, input);
    if (await isAncestor(git, input.sha, targetHead)) return { kind: 'already_landed', targetHead };
    if (await isAncestor(git, targetHead, input.sha)) {
      const tree = (await git.text(['rev-parse', '--verify', `${input.sha}^{tree}`])).trim();
      return { kind: 'merged', targetHead, merged: input.sha, tree, fastForward: true };
    }
    const written = await writeMergeTree(git, targetHead, input.sha);
    if (written.conflict) return { kind: 'conflict', targetHead, conflict: written.conflict };
    const message = `Land ${input.branch} on ${shortBranch(input.target)}\n\nMerged by the taskloop queue of ${shortBranch(input.target)}.\n`;
    const dates = { GIT_AUTHOR_DATE: input.date, GIT_COMMITTER_DATE: input.date };
    const merged = (
      await git.text(['commit-tree', written.tree, '-p', targetHead, '-p', input.sha, '-F', '-'], {
        input: Buffer.from(message),
        env: dates,
      })
    ).trim();
    return { kind: 'merged', targetHead, merged, tree: written.tree, fastForward: false };
  });
}

/** The conflicting hunks kept for the coder: enough to see each conflict, bounded so history stays small. */
const MAX_HUNK_BYTES = 4_000;
const MAX_FILES_NAMED = 50;

async function writeMergeTree(
  git: TreeGit,
  ours: string,
  theirs: string,
): Promise<{ tree: string; conflict?: ConflictEvidence }> {
  try {
    const tree = (await git.text(['merge-tree', '--write-tree', '--no-messages', ours, theirs])).trim();
    return { tree };
  } catch (error) {
    // Exit 1: conflicts. The first line is the tree (its files hold the markers); the rest names the files.
    if (!(error instanceof GitError) || error.exitCode !== 1) throw error;
    const named = await git
      .text(['merge-tree', '--write-tree', '--no-messages', '--name-only', ours, theirs])
      .catch((conflicted: unknown) => (conflicted instanceof GitError ? conflicted.message : ''));
    const [tree = '', ...names] = named.split('\n').filter(Boolean);
    const files = [...new Set(names)].slice(0, MAX_FILES_NAMED);
    return { tree: tree.trim(), conflict: { files, hunks: await conflictHunks(git, tree.trim(), files) } };
  }
}

/** The marked regions of each conflicting file in the merge's tree, with the file's name, bounded. */
async function conflictHunks(git: TreeGit, tree: string, files: string[]): Promise<string> {
  const parts: string[] = [];
  for (const file of files) {
    const text = await git.text(['cat-file', 'blob', `${tree}:${file}`]).catch(() => '');
    const hunks = markedRegions(text);
    parts.push(
      `--- ${file}\n${hunks || '(a conflict of the file as a whole: added, deleted or renamed on both sides)'}`,
    );
  }
  const all = parts.join('\n');
  return all.length <= MAX_HUNK_BYTES ? all : `${all.slice(0, MAX_HUNK_BYTES)}\n… (cut)`;
}

function markedRegions(text: string): string {
  const out: string[] = [];
  let inside = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('<<<<<<< ')) inside = true;
    if (inside) out.push(line);
    if (line.startsWith('>>>>>>> ')) inside = false;
  }
  return out.join('\n');
}
