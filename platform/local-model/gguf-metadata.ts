// The key/value metadata at the head of a GGUF file (llama.cpp's model format): read to check that an assembled or
// user-named file is the model it claims to be (`general.name`) and whether it carries its own chat template. Only the
// header is read; arrays (the tokenizer's 150k-entry vocabulary) are skipped, their length kept.
import { open, type FileHandle } from 'node:fs/promises';

/** A metadata value: numbers, booleans and strings as such; an array as its element count. */
export type GgufValue = number | bigint | boolean | string | { array: number };

export interface GgufMetadata {
  version: number;
  tensorCount: bigint;
  values: Map<string, GgufValue>;
}

export class GgufFormatError extends Error {
  override name = 'GgufFormatError';
}

// The value types of the GGUF specification (ggml/docs/gguf.md), by number: width in bytes of the fixed ones.
const fixedWidth: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;
/** Far more than any real header has (Qwen2.5's: 26 keys); a larger count is a corrupt file, not a model. */
const MAX_KEYS = 100_000;
/** Strings above this (a chat template is ~5 kB, a tokenizer merge a few bytes) mean a corrupt length. */
const MAX_STRING = 16 * 1024 * 1024;

/** Sequential reads over a file handle through one buffer, refilled as the header is walked. */
class Reader {
  private buffer = Buffer.alloc(1 << 20);
  private start = 0;
  private end = 0;
  private position = 0;
  constructor(
    private readonly handle: FileHandle,
    private readonly file: string,
  ) {}

  private async need(bytes: number): Promise<void> {
    if (this.end - this.start >= bytes) return;
    if (bytes > this.buffer.length) {
      const bigger = Buffer.alloc(Math.max(bytes, this.buffer.length * 2));
      this.buffer.copy(bigger, 0, this.start, this.end);
      this.buffer = bigger;
    } else this.buffer.copy(this.buffer, 0, this.start, this.end);
    this.end -= this.start;
    this.start = 0;
    while (this.end < bytes) {
      const { bytesRead } = await this.handle.read(this.buffer, this.end, this.buffer.length - this.end, this.position);
      if (bytesRead === 0) throw new GgufFormatError(`${this.file} ends inside its GGUF header (truncated file)`);
      this.position += bytesRead;
      this.end += bytesRead;
    }
  }

  async bytes(count: number): Promise<Buffer> {
    await this.need(count);
    const slice = this.buffer.subarray(this.start, this.start + count);
    this.start += count;
    return slice;
  }

  async u32(): Promise<number> {
    return (await this.bytes(4)).readUInt32LE(0);
  }

  async u64(): Promise<bigint> {
    return (await this.bytes(8)).readBigUInt64LE(0);
  }

  async string(): Promise<string> {
    const length = await this.u64();
    if (length > BigInt(MAX_STRING))
      throw new GgufFormatError(`${this.file} has a GGUF string of ${length} bytes (corrupt header)`);
    return (await this.bytes(Number(length))).toString('utf8');
  }
}

async function readScalar(reader: Reader, type: number, file: string): Promise<GgufValue> {
  if (type === STRING) return reader.string();
  const width = fixedWidth[type];
  if (width === undefined) throw new GgufFormatError(`${file} has a GGUF value of unknown type ${type}`);
  const data = await reader.bytes(width);
  switch (type) {
    case 0:
      return data.readUInt8(0);
    case 1:
      return data.readInt8(0);
    case 2:
      return data.readUInt16LE(0);
    case 3:
      return data.readInt16LE(0);
    case 4:
      return data.readUInt32LE(0);
    case 5:
      return data.readInt32LE(0);
    case 6:
      return data.readFloatLE(0);
    case 7:
      return data.readUInt8(0) !== 0;
    case 10:
      return data.readBigUInt64LE(0);
    case 11:
      return data.readBigInt64LE(0);
    default:
      return data.readDoubleLE(0);
  }
}

async function skipArray(reader: Reader, file: string): Promise<{ array: number }> {
  const type = await reader.u32();
  const count = await reader.u64();
  if (type === ARRAY) throw new GgufFormatError(`${file} has a nested GGUF array (not supported by this reader)`);
  const width = fixedWidth[type];
  if (type === STRING) for (let i = 0n; i < count; i++) await reader.string();
  else if (width === undefined) throw new GgufFormatError(`${file} has a GGUF array of unknown type ${type}`);
  else {
    // Skipped in slices so a long numeric array never needs one buffer of its size.
    let left = count * BigInt(width);
    while (left > 0n) {
      const step = left > 1n << 20n ? 1 << 20 : Number(left);
      await reader.bytes(step);
      left -= BigInt(step);
    }
  }
  return { array: Number(count) };
}

/** Reads the header of the GGUF file `file`; a file that is not GGUF (or a version before 2) is a GgufFormatError. */
export async function readGgufMetadata(file: string): Promise<GgufMetadata> {
  const handle = await open(file, 'r');
  try {
    const reader = new Reader(handle, file);
    const magic = (await reader.bytes(4).catch(() => Buffer.alloc(0))).toString('latin1');
    if (magic !== 'GGUF') throw new GgufFormatError(`${file} is not a GGUF file (it does not start with "GGUF")`);
    const version = await reader.u32();
    if (version < 2)
      throw new GgufFormatError(`${file} is GGUF version ${version}; llama.cpp reads version 2 and later`);
    const tensorCount = await reader.u64();
    const keyCount = await reader.u64();
    if (keyCount > BigInt(MAX_KEYS))
      throw new GgufFormatError(`${file} claims ${keyCount} metadata keys (corrupt header)`);
    const values = new Map<string, GgufValue>();
    for (let i = 0; i < Number(keyCount); i++) {
      const key = await reader.string();
      const type = await reader.u32();
      values.set(key, type === ARRAY ? await skipArray(reader, file) : await readScalar(reader, type, file));
    }
    return { version, tensorCount, values };
  } finally {
    await handle.close();
  }
}

/** A string value of the metadata, or undefined when absent or not a string. */
export function ggufString(metadata: GgufMetadata, key: string): string | undefined {
  const value = metadata.values.get(key);
  return typeof value === 'string' ? value : undefined;
}
