// git_diff, git_log and show_file: read-only looks at the worktree's history and changes (INVESTIGATE_WORKTREE).
import { z } from 'zod';
import { diffWorktreeFrom } from '../../git/diff-worktree.js';
import { defineTool } from './define-tool.js';
import { boundText, runReadOnlyGit } from './git-command.js';
import { resolveInWorktree } from './path-guard.js';

const MAX_DIFF_CHARS = 20_000;
const MAX_SHOW_CHARS = 40_000;
// A ref the model names: a branch, tag, sha or HEAD~n; never an option and never a range or pathspec.
const refPattern = /^(?!-)[A-Za-z0-9_./~^@-]{1,100}$/;
const refSchema = z.string().regex(refPattern, "must be a git ref such as 'HEAD', 'HEAD~1', 'main' or a commit sha");

async function guardPath(
  root: string,
  p: string | undefined,
): Promise<{ success: true; pathspec: string[] } | { success: false; error: string }> {
  if (p === undefined) return { success: true, pathspec: [] };
  const resolved = await resolveInWorktree(root, p);
  return resolved.success ? { success: true, pathspec: ['--', resolved.data.relative] } : resolved;
}

export const gitDiffTool = defineTool({
  name: 'git_diff',
  capability: 'INVESTIGATE_WORKTREE',
  description: 'Show your changes so far: the diff of the worktree against HEAD (or a ref), new files included.',
  args: z.strictObject({
    path: z.string().min(1).optional().describe('Only this file or directory, relative to the repository root.'),
    ref: refSchema.optional().describe("Compare against this ref instead of HEAD, e.g. 'HEAD~1'."),
  }),
  async run({ path, ref }, context) {
    const guarded = await guardPath(context.root, path);
    if (!guarded.success) return { reply: guarded.error };
    // The worktree is read as bytes into a tree and compared with the ref: no git runs over the worktree.
    const diff = await diffWorktreeFrom(context.root, ref ?? 'HEAD', guarded.pathspec.slice(1));
    if (!diff) return { reply: `error: ${ref ?? 'HEAD'} is not a commit; check the ref.` };
    const parts = [
      diff.diff.trim() === ''
        ? '(no changes)'
        : boundText(diff.diff.trimEnd(), MAX_DIFF_CHARS, 'pass a path to see one file'),
    ];
    if (diff.findings.length > 0)
      parts.push(`not taken (the commit would not hold these): ${diff.findings.map((f) => f.message).join('; ')}`);
    return { reply: parts.join('\n') };
  },
});

export const gitLogTool = defineTool({
  name: 'git_log',
  capability: 'INVESTIGATE_WORKTREE',
  description: 'Show recent commits (sha, date, subject), optionally only those touching a path.',
  args: z.strictObject({
    path: z.string().min(1).optional().describe('Only commits touching this file or directory.'),
    max_count: z.int().min(1).max(100).default(20).describe('How many commits to show (default 20, at most 100).'),
  }),
  async run({ path, max_count: maxCount }, context) {
    const guarded = await guardPath(context.root, path);
    if (!guarded.success) return { reply: guarded.error };
    const log = await runReadOnlyGit(context.root, [
      'log',
      '--no-color',
      `--max-count=${maxCount}`,
      '--format=%h %ad %s',
      '--date=short',
      ...guarded.pathspec,
    ]);
    if (log.exitCode !== 0) return { reply: `error: git log failed (${log.stderr.trim().split('\n')[0] ?? ''}).` };
    return { reply: log.stdout.trim() === '' ? '(no commits)' : log.stdout.trimEnd() };
  },
});

export const showFileTool = defineTool({
  name: 'show_file',
  capability: 'INVESTIGATE_WORKTREE',
  description: "Read a file as it was at a git ref (e.g. 'HEAD' for the version before your changes).",
  args: z.strictObject({
    path: z.string().min(1).describe('File path relative to the repository root.'),
    ref: refSchema.default('HEAD').describe("The ref to read it at (default 'HEAD')."),
  }),
  async run({ path, ref }, context) {
    const resolved = await resolveInWorktree(context.root, path);
    if (!resolved.success) return { reply: resolved.error };
    const shown = await runReadOnlyGit(context.root, ['show', '--no-color', `${ref}:${resolved.data.relative}`]);
    if (shown.exitCode !== 0)
      return {
        reply: `error: '${resolved.data.relative}' does not exist at ${ref} (${shown.stderr.trim().split('\n')[0] ?? ''}).`,
      };
    if (shown.stdout.includes('\0'))
      return { reply: `error: '${resolved.data.relative}' is a binary file at ${ref}; it is not shown.` };
    return {
      reply: `${resolved.data.relative} at ${ref}:\n${boundText(shown.stdout, MAX_SHOW_CHARS, 'read_file shows numbered ranges of the current version')}`,
    };
  },
});
