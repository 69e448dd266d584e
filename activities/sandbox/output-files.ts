// Reading the end of a (possibly huge) log file without loading the whole file: one bounded read, synchronous like
// the worker's other small reads (see activities/small-files.ts).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** The last `maxBytes` bytes of `file` as UTF-8 (a cut multi-byte character at the start is dropped). */
export async function readTail(file: string, maxBytes: number): Promise<string> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return '';
  }
  try {
    const { size } = fstatSync(fd);
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const text = buffer.toString('utf8');
    return length < size ? text.replace(/^\uFFFD+/, '') : text;
  } finally {
    closeSync(fd);
  }
}
