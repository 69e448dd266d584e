// search: find a text or regex in the worktree's files, as `file:line: text` (pure Node, no grep).
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { parseArguments } from './arguments.js';
import { resolveInWorktree } from './path-guard.js';
import type { CoderTool } from './types.js';
import { walkDirectory } from './walk.js';

const maxMatches = 200;
const maxFileBytes = 1_000_000;
const maxLineChars = 300;

const argsSchema = z.object({
  pattern: z.string().min(1),
  path: z.string().default('.'),
  regex: z.boolean().default(false),
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function* filesUnder(root: string, absolute: string, relative: string): AsyncGenerator<{ relative: string; absolute: string }> {
  const info = await stat(absolute).catch(() => undefined);
  if (info?.isFile()) {
    yield { relative, absolute };
    return;
  }
  for await (const entry of walkDirectory(root, absolute, true)) {
    if (entry.kind === 'file') yield entry;
  }
}

export const searchTool: CoderTool = {
  spec: {
    name: 'search',
    description: `Search file contents for a plain text (default) or a JavaScript regular expression (regex: true). Replies with 'file:line: text', at most ${maxMatches} matches.`,
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Text to find (or a regular expression when regex is true).' },
        path: { type: 'string', description: "File or directory to search, relative to the repository root (default '.')." },
        regex: { type: 'boolean', description: 'Treat pattern as a regular expression (default false).' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
  },
  async run(args, context) {
    const parsed = parseArguments('search', argsSchema, args);
    if (!parsed.success) return { reply: parsed.error };
    const { pattern, regex } = parsed.data;
    let matcher: RegExp;
    try {
      matcher = new RegExp(regex ? pattern : escapeRegExp(pattern));
    } catch (error) {
      return { reply: `error: argument 'pattern' is not a valid regular expression (${(error as Error).message}); fix it or pass regex: false.` };
    }
    const resolved = await resolveInWorktree(context.root, parsed.data.path);
    if (!resolved.success) return { reply: resolved.error };
    if (!(await stat(resolved.data.absolute).catch(() => undefined))) {
      return { reply: `error: '${parsed.data.path}' does not exist in the repository.` };
    }

    const hits: string[] = [];
    search: for await (const file of filesUnder(context.root, resolved.data.absolute, resolved.data.relative)) {
      const info = await stat(file.absolute).catch(() => undefined);
      if (!info || info.size > maxFileBytes) continue;
      const text = await readFile(file.absolute, 'utf8').catch(() => '\0');
      if (text.includes('\0')) continue; // Binary or unreadable.
      const lines = text.split(/\r?\n/);
      for (let i = 0; i < lines.length; i++) {
        if (!matcher.test(lines[i])) continue;
        if (hits.length === maxMatches) {
          hits.push(`... stopped at ${maxMatches} matches; narrow the pattern or the path`);
          break search;
        }
        const line = lines[i].length > maxLineChars ? `${lines[i].slice(0, maxLineChars)}...` : lines[i];
        hits.push(`${file.relative}:${i + 1}: ${line}`);
      }
    }
    return { reply: hits.length > 0 ? hits.join('\n') : `no matches for '${pattern}' in '${resolved.data.relative}'` };
  },
};
