// list_files: what is in a directory of the worktree.
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { resolveInWorktree } from './path-guard.js';
import { walkDirectory } from './walk.js';

const maxEntries = 500;

export const listFilesTool = defineTool({
  name: 'list_files',
  capability: 'READ_REPOSITORY',
  description: `List files and directories (directories end in '/'), at most ${maxEntries} entries; .git and caches are skipped.`,
  args: z.strictObject({
    path: z.string().default('.').describe("Directory to list, relative to the repository root (default '.')."),
    recursive: z.boolean().default(false).describe('List subdirectories too (default false).'),
  }),
  async run(args, context) {
    const resolved = await resolveInWorktree(context.root, args.path);
    if (!resolved.success) return { reply: resolved.error };
    const info = await stat(resolved.data.absolute).catch(() => undefined);
    if (!info?.isDirectory()) {
      return {
        reply: `error: '${args.path}' is not a directory in the repository. Call list_files with no path to see the root.`,
      };
    }
    const lines: string[] = [];
    let truncated = false;
    for await (const entry of walkDirectory(context.root, resolved.data.absolute, args.recursive)) {
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
});
