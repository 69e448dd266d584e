// read_file: a file's lines, numbered, bounded so one read cannot flood the model's context.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { parseArguments } from './arguments.js';
import { resolveInWorktree } from './path-guard.js';
import type { CoderTool } from './types.js';

const maxLines = 1000;
const maxChars = 60_000;

const argsSchema = z.object({
  path: z.string().min(1),
  start_line: z.int().positive().optional(),
  end_line: z.int().positive().optional(),
});

export const readFileTool: CoderTool = {
  spec: {
    name: 'read_file',
    description: `Read a text file. Each line is shown as '<number>\\t<text>'; the numbers are not part of the file. At most ${maxLines} lines per call: use start_line/end_line for longer files.`,
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the repository root.' },
        start_line: { type: 'integer', minimum: 1, description: 'First line to show (1-based, default 1).' },
        end_line: { type: 'integer', minimum: 1, description: 'Last line to show (inclusive).' },
      },
      required: ['path'],
      additionalProperties: false,
    },
  },
  async run(args, context) {
    const parsed = parseArguments('read_file', argsSchema, args);
    if (!parsed.success) return { reply: parsed.error };
    const { path: p, start_line: startArg, end_line: endArg } = parsed.data;
    const resolved = await resolveInWorktree(context.root, p);
    if (!resolved.success) return { reply: resolved.error };
    let text: string;
    try {
      text = await readFile(resolved.data.absolute, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a directory (use list_files)' : `cannot be read (${code})`;
      return { reply: `error: '${p}' ${why}.` };
    }
    if (text.includes('\0')) return { reply: `error: '${p}' is a binary file; it is not shown.` };
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    const start = startArg ?? 1;
    if (lines.length === 0) return { reply: `${resolved.data.relative} is empty.` };
    if (start > lines.length) return { reply: `error: start_line ${start} is past the end of '${p}' (${lines.length} lines).` };
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
};
