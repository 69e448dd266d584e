// The bytes of a tasks file as text, refused when they are not UTF-8: a Latin-1 goal decoded leniently would
// reach the model and the commit message as U+FFFD with no word to anyone.

export type DecodeResult = { success: true; text: string } | { success: false; line: number; column: number };

/** Strict UTF-8 (a leading BOM dropped); on failure, the 1-based line and column of the first bad byte. */
export function decodeUtf8(bytes: Uint8Array): DecodeResult {
  try {
    return { success: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    const offset = firstInvalidByte(bytes);
    const before = new TextDecoder('utf-8').decode(bytes.subarray(0, offset));
    const lines = before.split('\n');
    return { success: false, line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
  }
}

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence. */
export function firstInvalidByte(bytes: Uint8Array): number {
  const fatal = new TextDecoder('utf-8', { fatal: true });
  // Grow the prefix by whole sequences: the first prefix that fails to decode ends at the bad byte.
  let offset = 0;
  while (offset < bytes.length) {
    const lead = bytes[offset] as number;
    const size = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
    if (size === 0) return offset;
    try {
      fatal.decode(bytes.subarray(offset, offset + size));
    } catch {
      return offset;
    }
    offset += size;
  }
  return offset;
}
