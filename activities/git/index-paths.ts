// The paths in a worktree's git index, read from the file itself: what `git ls-files` prints for a worktree nothing
// has changed since `git worktree add` wrote it, without a git process (3 to 5 ms from the worker, on the coder's
// first message). Only the plain formats are read: versions 2 to 4 of one index file with SHA-1 or SHA-256 names.
// Anything else (a split or sparse index, an unknown version, a short or odd file) returns undefined, and the caller
// asks git.
import { readFileSync } from 'node:fs';
import path from 'node:path';

// Each entry: ctime, mtime, dev, ino, mode, uid, gid, size (4 bytes each, the times 8), then the object name and flags.
const STAT_BYTES = 40;
const MODE_OFFSET = 24;
const EXTENDED_FLAG = 0x4000;
const NAME_LENGTH_MASK = 0x0fff;
// A sparse index lists whole folders as entries of this mode (with the `sdir` extension): git expands them, we don't.
const FOLDER_MODE = 0o040000;
// Extensions whose presence means the entries here are not the whole list.
const INCOMPLETE = new Set(['link', 'sdir']);

/**
 * The paths of the index at `<gitDir>/index` (each once, whatever its stage), or undefined when the file is not in a
 * form read here. `hashBytes`: 20 for SHA-1 repositories, 32 for SHA-256.
 */
export function readIndexPaths(gitDir: string, hashBytes: 20 | 32): string[] | undefined {
  let data: Buffer;
  try {
    data = readFileSync(path.join(gitDir, 'index'));
  } catch {
    return undefined;
  }
  try {
    return parseIndex(data, hashBytes);
  } catch {
    return undefined; // read past the end: not an index this reads
  }
}

function parseIndex(data: Buffer, hashBytes: number): string[] | undefined {
  if (data.length < 12 + hashBytes || data.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = data.readUInt32BE(8);
  const end = data.length - hashBytes; // the checksum closes the file
  const paths = new Set<string>();
  let offset = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let index = 0; index < count; index += 1) {
    const start = offset;
    if ((data.readUInt32BE(start + MODE_OFFSET) & 0o170000) === FOLDER_MODE) return undefined;
    const flags = data.readUInt16BE(start + STAT_BYTES + hashBytes);
    offset = start + STAT_BYTES + hashBytes + 2;
    if (flags & EXTENDED_FLAG) {
      if (version < 3) return undefined;
      offset += 2;
    }
    let name: Buffer;
    if (version === 4) {
      // The name is the previous one without its last N bytes (N a varint), then the bytes up to a NUL.
      const [strip, afterNumber] = readVarint(data, offset);
      const nul = data.indexOf(0, afterNumber);
      if (nul < 0 || nul >= end || strip > previous.length) return undefined;
      name = Buffer.concat([previous.subarray(0, previous.length - strip), data.subarray(afterNumber, nul)]);
      offset = nul + 1;
    } else {
      const length = flags & NAME_LENGTH_MASK;
      const nul = data.indexOf(0, offset);
      if (nul < 0 || nul >= end || (length < NAME_LENGTH_MASK && nul - offset !== length)) return undefined;
      name = data.subarray(offset, nul);
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
      offset = start + Math.ceil((nul + 1 - start) / 8) * 8;
    }
    if (offset > end || name.length === 0) return undefined;
    paths.add(name.toString('utf8'));
    previous = name;
  }
  // Extensions: a 4-byte signature and a 4-byte size each, up to the checksum.
  while (offset + 8 <= end) {
    const signature = data.toString('latin1', offset, offset + 4);
    if (INCOMPLETE.has(signature)) return undefined;
    offset += 8 + data.readUInt32BE(offset + 4);
  }
  return offset === end ? [...paths] : undefined;
}

/** Git's offset varint (as in pack files' OFS_DELTA): 7 bits a byte, each continuation adding one. */
function readVarint(data: Buffer, offset: number): [number, number] {
  let byte = data.readUInt8(offset);
  let value = byte & 0x7f;
  let at = offset + 1;
  while (byte & 0x80) {
    byte = data.readUInt8(at);
    value = ((value + 1) << 7) | (byte & 0x7f);
    at += 1;
  }
  return [value, at];
}
