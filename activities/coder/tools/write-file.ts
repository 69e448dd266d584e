// write_file: create or overwrite a whole file (parent directories are created).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { parseArguments } from './arguments.js';
import { resolveInWorktree } from './path-guard.js';
import type { CoderTool } from './types.js';

const argsSchema = z.object({
  path: z.string().min(1),
  content: z.string(),
});

export const writeFileTool: CoderTool = {
  spec: {
    name: 'write_file',
    description: 'Create a file or overwrite it with the full new content. Prefer replace_in_file for small edits to existing files.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the repository root.' },
        content: { type: 'string', description: 'The complete new content of the file.' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
  },
  async run(args, context) {
    const parsed = parseArguments('write_file', argsSchema, args);
    if (!parsed.success) return { reply: parsed.error };
    const resolved = await resolveInWorktree(context.root, parsed.data.path);
    if (!resolved.success) return { reply: resolved.error };
    const { absolute, relative } = resolved.data;
    try {
      await mkdir(path.dirname(absolute), { recursive: true });
      await writeFile(absolute, parsed.data.content, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'EISDIR' ? 'it is a directory' : code === 'ENOTDIR' || code === 'EEXIST' ? 'a parent of it is a file' : String(code);
      return { reply: `error: cannot write '${parsed.data.path}': ${why}.` };
    }
    const { telemetry } = context;
    telemetry.writeFileOperations += 1;
    telemetry.mutationOperations += 1;
    // Rewriting a whole file after a failed patch on it is the fallback the telemetry tracks.
    if (context.failedReplacePaths.has(relative)) telemetry.writeFileFallbacks += 1;
    context.changedFiles.add(relative);
    const lines = parsed.data.content === '' ? 0 : parsed.data.content.split('\n').length - (parsed.data.content.endsWith('\n') ? 1 : 0);
    return { reply: `wrote ${relative} (${lines} lines)` };
  },
};
