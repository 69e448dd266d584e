// write_file: create or overwrite a whole file (parent directories are created); never through a link or into a
// FIFO (see worktree-file.ts).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { refusedTestEdit } from './coaching.js';
import { defineTool } from './define-tool.js';
import { numbersRemovedNote, withoutReadFileNumbers } from './line-numbers.js';
import { resolveInWorktree } from './path-guard.js';
import { writeWorktreeFile } from './worktree-file.js';

export const writeFileTool = defineTool({
  name: 'write_file',
  capability: 'WRITE_WORKTREE',
  description: 'Create a file or overwrite it whole with the new content; prefer replace_in_file for small edits.',
  args: z.strictObject({
    path: z.string().min(1).describe('File path relative to the repository root.'),
    content: z.string().describe('The complete new content of the file.'),
  }),
  async run(args, context) {
    const resolved = await resolveInWorktree(context.root, args.path);
    if (!resolved.success) return { reply: resolved.error };
    const { absolute, relative } = resolved.data;
    const refusedEdit = refusedTestEdit(context, relative);
    if (refusedEdit !== undefined) return { reply: refusedEdit };
    const { text: content, stripped } = withoutReadFileNumbers(args.content);
    try {
      await mkdir(path.dirname(absolute), { recursive: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOTDIR' || code === 'EEXIST' ? 'a parent of it is a file' : String(code);
      return { reply: `error: cannot write '${args.path}': ${why}.` };
    }
    const refused = await writeWorktreeFile(context.root, resolved.data, content);
    if (refused !== undefined) return { reply: `error: cannot write '${args.path}': ${refused}.` };
    const { telemetry } = context;
    telemetry.writeFileOperations += 1;
    telemetry.mutationOperations += 1;
    // Rewriting a whole file after a failed patch on it is the fallback the telemetry tracks.
    if (context.failedReplacePaths.has(relative)) telemetry.writeFileFallbacks += 1;
    context.changedFiles.add(relative);
    const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
    return { reply: `wrote ${relative} (${lines} lines)${stripped ? numbersRemovedNote('content') : ''}` };
  },
});
