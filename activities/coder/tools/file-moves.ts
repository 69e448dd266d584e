// delete_file and move_file: behind the same path guard as every write (WRITE_WORKTREE).
import { lstat, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { refusedTestEdit } from './coaching.js';
import { defineTool } from './define-tool.js';
import { resolveInWorktree } from './path-guard.js';

const pathArg = z.string().min(1).describe('File path relative to the repository root.');

export const deleteFileTool = defineTool({
  name: 'delete_file',
  capability: 'WRITE_WORKTREE',
  description: 'Delete one file (not a directory).',
  args: z.strictObject({ path: pathArg }),
  async run(args, context) {
    const resolved = await resolveInWorktree(context.root, args.path);
    if (!resolved.success) return { reply: resolved.error };
    const refusedEdit = refusedTestEdit(context, resolved.data.relative);
    if (refusedEdit !== undefined) return { reply: refusedEdit };
    const info = await lstat(resolved.data.absolute).catch(() => undefined);
    if (!info) return { reply: `error: '${args.path}' does not exist.` };
    if (info.isDirectory()) return { reply: `error: '${args.path}' is a directory; delete its files one by one.` };
    await rm(resolved.data.absolute);
    context.telemetry.mutationOperations += 1;
    context.changedFiles.add(resolved.data.relative);
    return { reply: `deleted ${resolved.data.relative}` };
  },
});

export const moveFileTool = defineTool({
  name: 'move_file',
  capability: 'WRITE_WORKTREE',
  description: 'Move or rename one file; the destination must not exist (its folders are created).',
  args: z.strictObject({ from: pathArg, to: z.string().min(1).describe('New path relative to the repository root.') }),
  async run(args, context) {
    const from = await resolveInWorktree(context.root, args.from);
    if (!from.success) return { reply: from.error };
    const to = await resolveInWorktree(context.root, args.to);
    if (!to.success) return { reply: to.error };
    const refusedEdit = refusedTestEdit(context, from.data.relative) ?? refusedTestEdit(context, to.data.relative);
    if (refusedEdit !== undefined) return { reply: refusedEdit };
    const info = await lstat(from.data.absolute).catch(() => undefined);
    if (!info?.isFile()) return { reply: `error: '${args.from}' is not a file in the repository.` };
    if (await lstat(to.data.absolute).catch(() => undefined))
      return { reply: `error: '${args.to}' already exists; delete it first or pick another name.` };
    await mkdir(path.dirname(to.data.absolute), { recursive: true });
    await rename(from.data.absolute, to.data.absolute);
    context.telemetry.mutationOperations += 1;
    context.changedFiles.add(from.data.relative);
    context.changedFiles.add(to.data.relative);
    return { reply: `moved ${from.data.relative} to ${to.data.relative}` };
  },
});
