// Reading what repository code could have written (a test's report, a file a traceback names, a file of the worktree):
// never through a symbolic link, only regular files, at most a bounded size, and never a read that could block the
// worker (a FIFO opened without O_NONBLOCK waits for a writer on the worker's thread pool forever). Writing where
// repository code could have left a link or a FIFO (the coder's edits after its own test runs) follows the same rules.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { realPathOf } from './small-files.js';

export type UntrustedReadProblem = 'missing' | 'link' | 'not_regular' | 'too_large' | 'outside';

export type UntrustedRead =
  { ok: true; text: string; bytes: number } | { ok: false; problem: UntrustedReadProblem; detail: string };

const openFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** What a file that is not regular is, in words: its kind names the attack in a record. */
function kindOf(stats: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * Reads `file` as UTF-8 when it is a regular file of at most `maxBytes`, opened without following a link in its last
 * component (callers confine the folders above it: confineToRoot). Every other case is a value naming the problem.
 */
export async function readUntrustedFile(file: string, maxBytes: number): Promise<UntrustedRead> {
  let handle;
  try {
    handle = await open(file, openFlags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { ok: false, problem: 'link', detail: `${file} is a symbolic link` };
    if (code === 'ENXIO') return { ok: false, problem: 'not_regular', detail: `${file} is a socket` };
    return { ok: false, problem: 'missing', detail: `${file} could not be opened (${code ?? 'error'})` };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { ok: false, problem: 'not_regular', detail: `${file} is ${kindOf(stats)}` };
    if (stats.size > maxBytes) {
      return { ok: false, problem: 'too_large', detail: `${file} holds ${stats.size} bytes, more than ${maxBytes}` };
    }
    // The size is read again by the read itself: a file that grew meanwhile is cut at maxBytes + 1 and refused.
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, Math.max(stats.size, 0) + 1));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > maxBytes) {
      return { ok: false, problem: 'too_large', detail: `${file} grew past ${maxBytes} bytes while read` };
    }
    return { ok: true, text: buffer.subarray(0, bytesRead).toString('utf8'), bytes: bytesRead };
  } finally {
    await handle.close();
  }
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The absolute path of `name` (relative to `root`, or absolute) when it lies inside `root` once every link in it is
 * resolved; undefined otherwise (a `..` out, an absolute path elsewhere, a link leading out, a missing file).
 */
export function confineToRoot(root: string, name: string): string | undefined {
  const realRoot = realPathOf(root);
  if (!realRoot || name === '' || name.includes('\0')) return undefined;
  const candidate = path.resolve(root, name);
  if (!isInside(candidate, path.resolve(root)) && !isInside(candidate, realRoot)) return undefined;
  const real = realPathOf(candidate);
  return real !== undefined && isInside(real, realRoot) ? real : undefined;
}

/** Reads `name` from inside `root` (confineToRoot, then readUntrustedFile); a path that leaves it is `outside`. */
export async function readConfinedFile(root: string, name: string, maxBytes: number): Promise<UntrustedRead> {
  const confined = confineToRoot(root, name);
  if (confined === undefined) return { ok: false, problem: 'outside', detail: `${name} is not a file inside ${root}` };
  return readUntrustedFile(confined, maxBytes);
}

export type UntrustedWrite =
  { ok: true } | { ok: false; problem: 'link' | 'not_regular' | 'failed'; detail: string; code?: string };

// No O_TRUNC: a file that turns out not to be regular is left as it was.
const writeFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Writes `content` to `file` (created when missing) when it is, or becomes, a regular file: opened without following
 * a link in its last component (callers confine the folders above it) and without blocking (a FIFO without a reader
 * fails at once, one with a reader is refused before a byte is written). Every other case is a value naming it.
 */
export async function writeUntrustedFile(file: string, content: string): Promise<UntrustedWrite> {
  let handle;
  try {
    handle = await open(file, writeFlags, 0o666);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { ok: false, problem: 'link', detail: `${file} is a symbolic link` };
    if (code === 'ENXIO') return { ok: false, problem: 'not_regular', detail: `${file} is a FIFO or a socket` };
    return { ok: false, problem: 'failed', detail: `${file} could not be opened (${code ?? 'error'})`, code };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { ok: false, problem: 'not_regular', detail: `${file} is ${kindOf(stats)}` };
    await handle.truncate(0);
    await handle.writeFile(content, 'utf8');
    return { ok: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, problem: 'failed', detail: `${file} could not be written (${code ?? 'error'})`, code };
  } finally {
    await handle.close();
  }
}
