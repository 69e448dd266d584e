// The worker's small metadata files (a worktree's `.git` pointer and HEAD, saved results, process records, artifacts
// already held in memory) are read and written with synchronous calls. Each fs/promises call is several round trips
// through libuv's four-thread pool: on the bench machine a 300-byte readFile took 130 us of CPU that way against 5 us
// synchronously (2,000 reads each), and one attempt made about 100 such calls. These files are small and live in the
// host's own folders on local disk, so a call holds the event loop for microseconds; logs and large content keep
// their asynchronous, streaming paths.
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Content up to this size is written synchronously; larger content goes through fs/promises. */
export const SMALL_FILE_BYTES = 1024 * 1024;

/** The file's text, or undefined when it cannot be read (missing, a folder, no permission). */
export function readSmallFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * A file's text, as `readFile(file, 'utf8')` gives it (and throwing as it does): synchronously when the file holds at
 * most SMALL_FILE_BYTES (a file of /proc, which reports size 0, too).
 */
export async function readText(file: string): Promise<string> {
  return statSync(file).size <= SMALL_FILE_BYTES ? readFileSync(file, 'utf8') : readFile(file, 'utf8');
}

/** Writes `content` to `file` as `writeFile(file, content, 'utf8')` does: synchronously when it is small. */
export async function writeText(file: string, content: string): Promise<void> {
  if (Buffer.byteLength(content, 'utf8') <= SMALL_FILE_BYTES) writeFileSync(file, content, 'utf8');
  else await writeFile(file, content, 'utf8');
}

/** The path with every symbolic link resolved (one system call), or undefined when it does not exist. */
export function realPathOf(file: string): string | undefined {
  try {
    return realpathSync.native(file);
  } catch {
    return undefined;
  }
}

/** True when `dir` exists and is a folder. */
export function isDirectorySync(dir: string): boolean {
  try {
    return statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/**
 * Writes `content` to `file` atomically (a temporary file beside it, renamed into place), creating the folder when the
 * first write finds it missing; the temporary file is removed when the write fails. Synchronous up to
 * SMALL_FILE_BYTES, through fs/promises beyond.
 */
export async function writeFileAtomic(file: string, content: string, temp: string): Promise<void> {
  if (Buffer.byteLength(content, 'utf8') <= SMALL_FILE_BYTES) return writeSmallFileAtomic(file, content, temp);
  try {
    try {
      await writeFile(temp, content, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(path.dirname(temp), { recursive: true });
      await writeFile(temp, content, 'utf8');
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** writeFileAtomic for content known to be small, synchronously. */
export function writeSmallFileAtomic(file: string, content: string, temp: string): void {
  try {
    try {
      writeFileSync(temp, content, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(path.dirname(temp), { recursive: true });
      writeFileSync(temp, content, 'utf8');
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
