// search: find a text or regex in the worktree's files with `git grep` over a snapshot of them (tracked files and
// the files the coder created, as a tree of their bytes: no git runs over the worktree), as `file:line: text`.
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { runReadOnlyGit } from './git-command.js';
import { resolveInWorktree } from './path-guard.js';
import { skippedDirectories } from './walk.js';

const maxMatches = 200;
const maxLineChars = 300;
// Caches that are not git-ignored must not be searched either (the walk skips them the same way).
const excludeCaches = [...skippedDirectories].map((name) => `:(exclude,glob)**/${name}/**`);

/** `file\0line\0text` lines of `git grep -z -n` as [file, `file:line: text`] pairs. */
function parseMatches(stdout: string): [string, string][] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      // -z: `file\0line\0text`, so a ':' in a file name cannot confuse the parse.
      const [file = '', number, ...rest] = line.split('\0');
      const text = rest.join('\0');
      return [file, `${file}:${number}: ${text.length > maxLineChars ? `${text.slice(0, maxLineChars)}...` : text}`];
    });
}

export const searchTool = defineTool({
  name: 'search',
  capability: 'READ_REPOSITORY',
  description: `Find a plain text (default) or an extended regular expression (regex: true, as grep -E) in the repository's files; replies 'file:line: text', at most ${maxMatches} matches.`,
  args: z.strictObject({
    pattern: z.string().min(1).describe('Text to find (or a regular expression when regex is true).'),
    path: z
      .string()
      .default('.')
      .describe("File or directory to search, relative to the repository root (default '.')."),
    regex: z.boolean().default(false).describe('Treat pattern as an extended regular expression (default false).'),
  }),
  async run({ pattern, path, regex }, context) {
    const resolved = await resolveInWorktree(context.root, path);
    if (!resolved.success) return { reply: resolved.error };
    if (!(await stat(resolved.data.absolute).catch(() => undefined)))
      return { reply: `error: '${path}' does not exist in the repository.` };
    const where = resolved.data.relative;
    const options = ['-I', '-n', '-z', '--no-color', '--full-name', regex ? '-E' : '-F', '-e', pattern, '--'];
    // A snapshot of the worktree (a tree of its bytes) holds the files this coder created too: one grep.
    const tracked = await runReadOnlyGit(context.root, ['grep', ...options, where, ...excludeCaches]);
    if (tracked.exitCode > 1) {
      const why =
        tracked.stderr
          .trim()
          .split('\n')[0]
          ?.replace(/^fatal: (-e option, '.*': )?/, '') || `git grep exited ${tracked.exitCode}`;
      if (regex)
        return {
          reply: `error: argument 'pattern' is not a valid regular expression (${why}); fix it or pass regex: false.`,
        };
      return { reply: `error: search failed (${why}).` };
    }
    const matches = parseMatches(tracked.stdout);
    if (matches.length === 0) return { reply: `no matches for '${pattern}' in '${where}'` };
    matches.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const hits = matches.slice(0, maxMatches).map(([, hit]) => hit);
    if (matches.length > maxMatches) hits.push(`... stopped at ${maxMatches} matches; narrow the pattern or the path`);
    return { reply: hits.join('\n') };
  },
});
