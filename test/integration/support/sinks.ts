// Every place a run leaves text behind, read back as strings, for tests that search them (secret sweeps).
import type { WorkflowHandle } from '@temporalio/client';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { stateQuery } from '../../../workflows/messages.js';
import { git } from './tasks.js';

/** Every file under `dir`, recursively, as `path: text` (missing folder: nothing). */
export async function readTree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  return Promise.all(files.map(async (file) => `${file}: ${await readFile(file, 'utf8')}`));
}

/** The ids of every object in the repository's store (worktrees share it). */
export async function gitObjectIds(repo: string): Promise<Set<string>> {
  const listed = await git(repo, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname)');
  return new Set(listed.split('\n').filter(Boolean));
}

/** The contents of the objects not in `before`, plus every reflog and commit message. */
export async function gitTextSince(repo: string, before: Set<string>): Promise<string[]> {
  const ids = [...(await gitObjectIds(repo))].filter((id) => !before.has(id));
  const objects = await Promise.all(ids.map(async (id) => `${id}: ${await git(repo, 'cat-file', '-p', id)}`));
  const gitDir = path.resolve(repo, await git(repo, 'rev-parse', '--git-common-dir'));
  return [
    ...objects,
    ...(await readTree(path.join(gitDir, 'logs'))),
    ...(await readTree(path.join(gitDir, 'worktrees'))),
    await git(repo, 'log', '--all', '--format=%B'),
  ];
}

/** The workflow's whole history with payloads decoded, and its state query. */
export async function temporalText(handle: WorkflowHandle): Promise<string[]> {
  const history = await handle.fetchHistory();
  const decoded = JSON.stringify(history, (_key, value: unknown) =>
    value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value,
  );
  const state = await handle.query(stateQuery);
  return [decoded, JSON.stringify(state)];
}

/** The texts (with where they came from) that contain any of `needles`. */
export function hits(texts: string[], needles: string[]): string[] {
  return texts.filter((text) => needles.some((needle) => text.includes(needle))).map((text) => text.slice(0, 300));
}
