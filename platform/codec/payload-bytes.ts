// A Payload as the bytes of Temporal's proto message (temporal.api.common.v1.Payload: metadata = 1, data = 2), the
// plaintext the codec encrypts, as Temporal's own samples do; protobufjs's writer and reader, no generated code.
import type { Payload } from '@temporalio/common';
import protobuf from 'protobufjs/minimal.js';

const METADATA_FIELD = (1 << 3) | 2;
const DATA_FIELD = (2 << 3) | 2;
const ENTRY_KEY = (1 << 3) | 2;
const ENTRY_VALUE = (2 << 3) | 2;

export function encodePayloadBytes(payload: Payload): Uint8Array {
  const writer = protobuf.Writer.create();
  for (const [key, value] of Object.entries(payload.metadata ?? {}))
    writer.uint32(METADATA_FIELD).fork().uint32(ENTRY_KEY).string(key).uint32(ENTRY_VALUE).bytes(value).ldelim();
  if (payload.data && payload.data.length > 0) writer.uint32(DATA_FIELD).bytes(payload.data);
  return writer.finish();
}

export function decodePayloadBytes(bytes: Uint8Array): Payload {
  const reader = protobuf.Reader.create(bytes);
  const metadata: Record<string, Uint8Array> = {};
  let data: Uint8Array = new Uint8Array(0);
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag === METADATA_FIELD) {
      const end = reader.uint32() + reader.pos;
      let key = '';
      let value: Uint8Array = new Uint8Array(0);
      while (reader.pos < end) {
        const entryTag = reader.uint32();
        if (entryTag === ENTRY_KEY) key = reader.string();
        else if (entryTag === ENTRY_VALUE) value = reader.bytes();
        else reader.skipType(entryTag & 7);
      }
      metadata[key] = value;
    } else if (tag === DATA_FIELD) data = reader.bytes();
    else reader.skipType(tag & 7);
  }
  return { metadata, data };
}
