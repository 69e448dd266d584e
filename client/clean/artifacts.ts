// Finds artifact folders (`<workDir>/artifacts/<workflow>`) not written to for a while: a folder's age is that of
// its newest file, so a task still writing artifacts is never old.
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

export interface OldArtifactFolder {
  dir: string;
  newestMs: number;
}

async function newestMtime(dir: string): Promise<number> {
  let newest = (await stat(dir)).mtimeMs;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const mtime = entry.isDirectory() ? await newestMtime(full) : (await stat(full)).mtimeMs;
    newest = Math.max(newest, mtime);
  }
  return newest;
}

/** Workflow artifact folders under `workDir` whose newest entry is older than `olderThanMs` before `nowMs`. */
export async function findOldArtifacts(
  workDir: string,
  olderThanMs: number,
  nowMs: number,
): Promise<OldArtifactFolder[]> {
  const root = path.join(workDir, 'artifacts');
  const entries = await readdir(root, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const old: OldArtifactFolder[] = [];
  for (const entry of entries.filter((item) => item.isDirectory())) {
    const dir = path.join(root, entry.name);
    const newestMs = await newestMtime(dir);
    if (nowMs - newestMs > olderThanMs) old.push({ dir, newestMs });
  }
  return old;
}

export async function removeArtifactFolder(folder: OldArtifactFolder): Promise<void> {
  await rm(folder.dir, { recursive: true, force: true });
}
