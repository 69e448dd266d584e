// read_file: a file's lines, numbered, bounded so one read cannot flood the model's context; only a regular file
// inside the worktree is read (see worktree-file.ts).
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { resolveInWorktree } from './path-guard.js';
import { readWorktreeFile } from './worktree-file.js';

const maxLines = 1000;
const maxChars = 60_000;

export const readFileTool = defineTool({
  name: 'read_file',
  capability: 'READ_REPOSITORY',
  description: `Read a text file; each line is shown as '<number>\\t<text>' (the numbers are not part of the file), at most ${maxLines} lines per call.`,
  args: z.strictObject({
    path: z.string().min(1).describe('File path relative to the repository root.'),
    start_line: z.int().positive().optional().describe('First line to show (1-based, default 1).'),
    end_line: z.int().positive().optional().describe('Last line to show (inclusive).'),
  }),
  async run(args, context) {
    const { path: p, start_line: startArg, end_line: endArg } = args;
    const resolved = await resolveInWorktree(context.root, p);
    if (!resolved.success) return { reply: resolved.error };
    const read = await readWorktreeFile(context.root, resolved.data);
    if (!read.ok)
      return { reply: `error: '${p}' ${read.why}${read.problem === 'directory' ? ' (use list_files)' : ''}.` };
    const { text } = read;
    if (text.includes('\0')) return { reply: `error: '${p}' is a binary file; it is not shown.` };
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    const start = startArg ?? 1;
    if (lines.length === 0) return { reply: `${resolved.data.relative} is empty.` };
    if (start > lines.length)
      return { reply: `error: start_line ${start} is past the end of '${p}' (${lines.length} lines).` };
    const end = Math.min(endArg ?? lines.length, lines.length, start + maxLines - 1);
    if (end < start) return { reply: `error: end_line ${end} is before start_line ${start}.` };

    const out: string[] = [];
    let chars = 0;
    let last = start - 1;
    for (let n = start; n <= end; n++) {
      const line = `${n}\t${lines[n - 1]}`;
      if (chars + line.length > maxChars) {
        // A single huge line (minified data) is cut rather than shown as nothing.
        if (out.length === 0) [out[0], last] = [`${line.slice(0, maxChars)} ...(line cut)`, n];
        break;
      }
      out.push(line);
      chars += line.length + 1;
      last = n;
    }
    const more = last < lines.length ? `; call again with start_line=${last + 1} for more` : '';
    return { reply: `${resolved.data.relative} (lines ${start}-${last} of ${lines.length}${more})\n${out.join('\n')}` };
  },
});
