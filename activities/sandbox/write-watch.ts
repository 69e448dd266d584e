// The limits on what one run adds to the folders it may write: bytes (on disk, so a sparse file costs what it uses)
// and files. The kernel caps each file's size (RLIMIT_FSIZE); nothing caps a folder, so the worker measures the folders
// the run may write (the worktree, the report folder and the run's /tmp) before the run and again while it runs, and
// stops a run once it is over.
// A walk costs about 10 µs a file: it is repeated no more often than ten times its own duration, at least every second,
// so a large repository is measured less often rather than at a larger share of a core.
import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

const MB = 1024 * 1024;
const MIN_INTERVAL_MS = 1_000;

export interface TreeSize {
  bytes: number;
  entries: number;
}

/** Bytes on disk and entries below `dir`, links not followed, its top-level `.git` left out (never writable). */
export async function measureTree(dir: string): Promise<TreeSize> {
  const total: TreeSize = { bytes: 0, entries: 0 };
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop() ?? dir;
    let names: Dirent[];
    try {
      names = await readdir(current, { withFileTypes: true });
    } catch {
      continue; // Removed meanwhile, or not a folder: nothing to count.
    }
    for (const entry of names) {
      if (current === dir && entry.name === '.git') continue;
      const file = path.join(current, entry.name);
      total.entries += 1;
      if (entry.isDirectory()) pending.push(file);
      const stats = await lstat(file).catch(() => undefined);
      if (stats) total.bytes += stats.blocks * 512;
    }
  }
  return total;
}

async function measureAll(dirs: readonly string[]): Promise<TreeSize> {
  const sizes = await Promise.all(dirs.map(measureTree));
  return sizes.reduce((sum, size) => ({ bytes: sum.bytes + size.bytes, entries: sum.entries + size.entries }), {
    bytes: 0,
    entries: 0,
  });
}

export interface WriteLimits {
  writtenMb: number;
  files: number;
}

/** What `after` adds to `before` beyond the limits, in words; undefined when within them. */
export function overLimits(before: TreeSize, after: TreeSize, limits: WriteLimits): string | undefined {
  const added = after.bytes - before.bytes;
  if (added > limits.writtenMb * MB)
    return `written bytes (over ${limits.writtenMb} MB added to the worktree and /tmp)`;
  if (after.entries - before.entries > limits.files)
    return `files (over ${limits.files} new files in the worktree and /tmp)`;
  return undefined;
}

export interface WriteWatch {
  /** Starts measuring while the run goes on; `onOver` is called once, with the limit in words. */
  start(onOver: (limit: string) => void): void;
  /** Stops measuring, measures once more (the first call only) and says which limit the run ended over, if any. */
  stop(): Promise<string | undefined>;
}

/** Measures `dirs` now (the baseline) and returns the watch of the run that follows. */
export async function watchWrites(dirs: readonly string[], limits: WriteLimits): Promise<WriteWatch> {
  const baseline = await measureAll(dirs);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let over: string | undefined;
  let final: Promise<string | undefined> | undefined;
  const measure = async () => {
    const started = Date.now();
    over ??= overLimits(baseline, await measureAll(dirs), limits);
    return Date.now() - started;
  };
  return {
    start(onOver) {
      const next = (walkMs: number) => {
        if (stopped) return;
        timer = setTimeout(
          () => {
            void measure().then((ms) => {
              if (over !== undefined && !stopped) return onOver(over);
              next(ms);
            });
          },
          Math.max(MIN_INTERVAL_MS, walkMs * 10),
        );
      };
      next(0);
    },
    stop() {
      if (!stopped) {
        stopped = true;
        if (timer) clearTimeout(timer);
        final = over === undefined ? measure().then(() => over) : Promise.resolve(over);
      }
      return final ?? Promise.resolve(over);
    },
  };
}
