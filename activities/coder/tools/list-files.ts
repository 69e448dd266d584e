// list_files: what is in a directory of the worktree.
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { parseArguments } from './arguments.js';
import { resolveInWorktree } from './path-guard.js';
import type { CoderTool } from './types.js';
import { walkDirectory } from './walk.js';

const maxEntries = 500;

const argsSchema = z.object({
  path: z.string().default('.'),
  recursive: z.boolean().default(false),
});

export const listFilesTool: CoderTool = {
  spec: {
    name: 'list_files',
    description: `List files and directories (directories end in '/'). Paths are relative to the repository root. At most ${maxEntries} entries; .git and caches are skipped.`,
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: "Directory to list, relative to the repository root (default '.')." },
        recursive: { type: 'boolean', description: 'List subdirectories too (default false).' },
      },
      additionalProperties: false,
    },
  },
  async run(args, context) {
    const parsed = parseArguments('list_files', argsSchema, args);
    if (!parsed.success) return { reply: parsed.error };
    const resolved = await resolveInWorktree(context.root, parsed.data.path);
    if (!resolved.success) return { reply: resolved.error };
    const info = await stat(resolved.data.absolute).catch(() => undefined);
    if (!info?.isDirectory()) {
      return { reply: `error: '${parsed.data.path}' is not a directory in the repository. Call list_files with no path to see the root.` };
    }
    const lines: string[] = [];
    let truncated = false;
    for await (const entry of walkDirectory(context.root, resolved.data.absolute, parsed.data.recursive)) {
      if (lines.length === maxEntries) {
        truncated = true;
        break;
      }
      lines.push(entry.kind === 'directory' ? `${entry.relative}/` : entry.relative);
    }
    if (lines.length === 0) return { reply: `(no files in '${resolved.data.relative}')` };
    if (truncated) lines.push(`... listing cut at ${maxEntries} entries; list a subdirectory to see more`);
    return { reply: lines.join('\n') };
  },
};
