// A stat cache per attempt worktree, as git's index keeps one: (path, size, mtime, ctime, inode, mode) → blob id, so
// a snapshot (snapshot-tree.ts) reads and hashes only the files whose stat changed since the last one; and the last
// tree it wrote, so a snapshot of an unchanged worktree writes nothing.
//
// The worktree is untrusted data, so the cache is trusted only where the sandbox cannot fake a match:
// - It is kept by the worker beside the worktree (`<worktree>.stat-cache`, next to the recorded git folder), in the
//   work folder that no sandboxed run sees, so nothing the tests run can read or write it.
// - Every write to a file sets its ctime to the current time, and so does every `utimes` that puts an old mtime back
//   or a `rename` that swaps in another file (which also has another inode). Setting ctime to a chosen value takes
//   changing the system clock (CAP_SYS_TIME), which the sandbox never has: its runs are the worker's own unprivileged
//   user, in bubblewrap's user namespace without that capability (docs/security.md). So a file whose size, mtime,
//   ctime, inode and mode all match the entry holds the bytes hashed then.
// - The racy-git rule: the clock ticks coarsely (a write in the same tick as the entry was read could leave ctime
//   unchanged), so an entry is remembered only when its mtime and ctime are older than RACY_MARGIN_MS before the
//   snapshot began its walk; a file changed since then is hashed again next time, whatever its stat says.
// - Only entries whose blob is in the object store are remembered (a snapshot that wrote its blobs saves the cache).
//
// Not covered: a worker running as root with `--sandbox none` (its tests could set the clock), and a process of the
// attempt still writing through a shared memory map across two snapshots (the test node's runs are killed, their
// process group and cgroup, before a snapshot is taken).
import { renameSync, rmSync, writeFileSync, type Stats } from 'node:fs';
import { readSmallFile } from '../small-files.js';
import { attemptStatCacheFile, recordedAttemptGitDir } from './attempt-git-dir.js';

/** How much older than the walk's start an entry's times must be to be remembered (the clock's tick, with room). */
export const RACY_MARGIN_MS = 2_000;

/**
 * The stat fields a cached entry must match: size, mtime and ctime (ms as a double: a fraction of a microsecond,
 * finer than the kernel's clock tick), inode, mode (type and execute bit).
 */
export function statKey(stats: Stats): string {
  return `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}:${stats.mode}`;
}

interface CacheFile {
  version: 1;
  algorithm: string;
  /** path → [stat key, blob id] */
  entries: Record<string, [string, string]>;
  /** The last tree written: [digest of its index lines, tree id]. */
  tree?: [string, string];
}

export interface StatCache {
  /** The blob id remembered for `path` when its stat still matches; undefined otherwise (read and hash it). */
  lookup(path: string, stats: Stats): string | undefined;
  /** Remembers `path`'s blob id, unless its times are too recent to trust (the racy-git rule). */
  remember(path: string, stats: Stats, id: string): void;
  /** The tree the last snapshot wrote for index lines of this digest, if any. */
  lastTree(digest: string): string | undefined;
  /**
   * Writes what this snapshot remembered, and the tree it wrote (replacing the file; nothing written when nothing
   * changed, or for a worktree without a record). Call it only once every remembered blob is in the object store.
   */
  save(tree: [string, string]): void;
  /** Forgets everything (the cache named an object the store no longer has). */
  drop(): void;
}

/**
 * The cache of the attempt worktree at `worktreePath`, as the last snapshot left it. A worktree that is not an
 * attempt's (no recorded git folder: the worker's work folder is not known to hold it) gets an empty cache that saves
 * nothing. `walkStartedMs` is the wall clock before the walk read any stat.
 */
export function loadStatCache(worktreePath: string, algorithm: string, walkStartedMs: number): StatCache {
  const file = recordedAttemptGitDir(worktreePath) ? attemptStatCacheFile(worktreePath) : undefined;
  const old = file ? readCacheFile(file, algorithm) : { entries: {} };
  const next: Record<string, [string, string]> = {};
  let changed = false;
  let count = 0;
  const trustedBefore = walkStartedMs - RACY_MARGIN_MS;
  return {
    lookup(path, stats) {
      const entry = old.entries[path];
      return entry && entry[0] === statKey(stats) ? entry[1] : undefined;
    },
    remember(path, stats, id) {
      if (stats.mtimeMs >= trustedBefore || stats.ctimeMs >= trustedBefore) return;
      const key = statKey(stats);
      const before = old.entries[path];
      if (!before || before[0] !== key || before[1] !== id) changed = true;
      next[path] = [key, id];
      count += 1;
    },
    lastTree(digest) {
      return old.tree?.[0] === digest ? old.tree[1] : undefined;
    },
    save(tree) {
      if (!file) return;
      const same = !changed && count === Object.keys(old.entries).length && old.tree?.[1] === tree[1];
      if (same) return;
      writeCacheFile(file, { version: 1, algorithm, entries: next, tree });
    },
    drop() {
      old.entries = {};
      delete old.tree;
      if (file) rmSync(file, { force: true });
    },
  };
}

/** The cache file as written for `algorithm`; empty when it is missing, unreadable or of another kind. */
function readCacheFile(file: string, algorithm: string): Pick<CacheFile, 'entries' | 'tree'> {
  const text = readSmallFile(file);
  if (!text) return { entries: {} };
  try {
    const parsed = JSON.parse(text) as Partial<CacheFile>;
    if (parsed.version !== 1 || parsed.algorithm !== algorithm || !parsed.entries) return { entries: {} };
    return { entries: parsed.entries, ...(parsed.tree ? { tree: parsed.tree } : {}) };
  } catch {
    return { entries: {} };
  }
}

function writeCacheFile(file: string, content: CacheFile): void {
  const temporary = `${file}.tmp`;
  try {
    writeFileSync(temporary, JSON.stringify(content), { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    // A cache that cannot be written costs the next snapshot its speed, never its result.
    rmSync(temporary, { force: true });
  }
}
