// Files of a snapshot's tree read from the object store (never from the worktree): what the review checks is what the
// commit records, whatever the tests wrote into the worktree since.
import { withTreeGit, type TreeGit } from './tree-git.js';
import type { TreeEntry } from './worktree-walk.js';

/** A file of the tree: its mode (100644, 100755 or 120000 for a link) and bytes; `tooLarge` instead over the bound. */
export type TreeFile = { path: string; mode: string; bytes: Buffer } | { path: string; mode: string; tooLarge: number };

/** The entries of `treeSha` at `paths` that are files or links (deleted paths and gitlinks are left out). */
export async function readTreeFiles(
  worktreePath: string,
  treeSha: string,
  paths: string[],
  maxBytes: number,
): Promise<TreeFile[]> {
  if (paths.length === 0) return [];
  return withTreeGit(worktreePath, async (git) => {
    const wanted = new Set(paths);
    const entries = (await listTreeEntries(git, treeSha)).filter(
      (entry) => wanted.has(entry.path) && /^(100644|100755|120000)$/.test(entry.mode),
    );
    return readBlobs(git, entries, maxBytes);
  });
}

/** Every file and link of `treeSha` (gitlinks left out), as `readTreeFiles` reads them, from a tree git given. */
export async function readWholeTree(git: TreeGit, treeSha: string, maxBytes: number): Promise<TreeFile[]> {
  const entries = (await listTreeEntries(git, treeSha)).filter((entry) => /^(100644|100755|120000)$/.test(entry.mode));
  return readBlobs(git, entries, maxBytes);
}

async function listTreeEntries(git: TreeGit, treeSha: string): Promise<TreeEntry[]> {
  const out = await git.text(['ls-tree', '-r', '-z', '--full-tree', treeSha]);
  return out
    .split('\0')
    .filter((record) => record.includes('\t'))
    .map((record) => {
      const tab = record.indexOf('\t');
      const [mode = '', , id = ''] = record.slice(0, tab).split(' ');
      return { mode, id, path: record.slice(tab + 1) };
    });
}

/** Sizes first (`--batch-check`), then the bytes of those within the bound (`--batch`). */
async function readBlobs(git: TreeGit, entries: TreeEntry[], maxBytes: number): Promise<TreeFile[]> {
  if (entries.length === 0) return [];
  const ids = Buffer.from(entries.map((entry) => `${entry.id}\n`).join(''));
  const sizes = (await git.text(['cat-file', '--batch-check=%(objectsize)'], { input: ids })).trim().split('\n');
  const small = entries.filter((_, index) => Number(sizes[index]) <= maxBytes);
  const out = small.length
    ? await git.run(['cat-file', '--batch'], { input: Buffer.from(small.map((e) => `${e.id}\n`).join('')) })
    : Buffer.alloc(0);
  const bytes = new Map<TreeEntry, Buffer>();
  let offset = 0;
  for (const entry of small) {
    const header = out.subarray(offset, out.indexOf(10, offset)).toString('utf8');
    offset += header.length + 1;
    const size = Number(header.split(' ')[2] ?? 0);
    bytes.set(entry, out.subarray(offset, offset + size));
    offset += size + 1;
  }
  return entries.map((entry, index) => {
    const read = bytes.get(entry);
    return read
      ? { path: entry.path, mode: entry.mode, bytes: read }
      : { path: entry.path, mode: entry.mode, tooLarge: Number(sizes[index]) };
  });
}
