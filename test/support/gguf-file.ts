// Small GGUF files for tests: the header's key/value section as llama.cpp writes it (version 3), no tensors. Enough
// for the metadata reader and the install's checks; llama-server would not load them.
export type GgufTestValue = string | number | boolean | { strings: string[] } | { u32s: number[] };

function ggufString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(bytes.length));
  return Buffer.concat([length, bytes]);
}

const u32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value);
  return buffer;
};
const u64 = (value: number) => {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64LE(BigInt(value));
  return buffer;
};

function encodeValue(value: GgufTestValue): Buffer {
  if (typeof value === 'string') return Buffer.concat([u32(8), ggufString(value)]);
  if (typeof value === 'boolean') return Buffer.concat([u32(7), Buffer.from([value ? 1 : 0])]);
  if (typeof value === 'number') return Buffer.concat([u32(4), u32(value)]);
  if ('strings' in value)
    return Buffer.concat([u32(9), u32(8), u64(value.strings.length), ...value.strings.map(ggufString)]);
  return Buffer.concat([u32(9), u32(4), u64(value.u32s.length), ...value.u32s.map(u32)]);
}

/** The bytes of a GGUF file holding `values` as metadata (numbers as uint32), then `padding` bytes of zeros. */
export function ggufBytes(values: Record<string, GgufTestValue>, padding = 0): Buffer {
  const entries = Object.entries(values);
  return Buffer.concat([
    Buffer.from('GGUF', 'latin1'),
    u32(3),
    u64(0),
    u64(entries.length),
    ...entries.map(([key, value]) => Buffer.concat([ggufString(key), encodeValue(value)])),
    Buffer.alloc(padding),
  ]);
}
