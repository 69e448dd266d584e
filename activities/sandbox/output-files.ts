// Reading the end of a (possibly huge) log file without loading the whole file.
import { open } from 'node:fs/promises';

/** The last `maxBytes` bytes of `file` as UTF-8 (a cut multi-byte character at the start is dropped). */
export async function readTail(file: string, maxBytes: number): Promise<string> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return '';
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const text = buffer.toString('utf8');
    return length < size ? text.replace(/^\uFFFD+/, '') : text;
  } finally {
    await handle.close();
  }
}
