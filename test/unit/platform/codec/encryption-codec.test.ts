import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseCodecKeys, type CodecKeys } from '../../../../platform/codec/codec-keys.js';
import {
  ENCRYPTED_ENCODING,
  EncryptionCodec,
  KEY_ID_METADATA,
  PayloadCodecError,
} from '../../../../platform/codec/encryption-codec.js';

const MARKER = 'goal-marker-7f3a';
const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');
const keysOf = (...entries: string[]): CodecKeys => parseCodecKeys(entries, (n) => `entry ${n}`, 'the test keys');
const goalPayload = (): Payload => defaultPayloadConverter.toPayload({ goal: `fix add ${MARKER}`, hint: 'a + b' });
const text = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? new Uint8Array(0)).toString('latin1');

describe('EncryptionCodec', () => {
  it('round-trips a payload, and what it writes holds neither the value nor its encoding in clear', async () => {
    const codec = new EncryptionCodec(keysOf(`a:${keyA}`));
    const original = goalPayload();
    const [sealed] = await codec.encode([original]);
    expect(text(sealed?.metadata?.encoding)).toBe(ENCRYPTED_ENCODING);
    expect(text(sealed?.metadata?.[KEY_ID_METADATA])).toBe('a');
    expect(text(sealed?.data)).not.toContain(MARKER);
    expect(text(sealed?.data)).not.toContain('json/plain');
    const [opened] = await codec.decode([sealed as Payload]);
    expect(defaultPayloadConverter.fromPayload(opened as Payload)).toEqual({
      goal: `fix add ${MARKER}`,
      hint: 'a + b',
    });
    expect(text(opened?.metadata?.encoding)).toBe('json/plain');
  });

  it('encrypts the same payload differently each time (a fresh IV)', async () => {
    const codec = new EncryptionCodec(keysOf(`a:${keyA}`));
    const [first, second] = await codec.encode([goalPayload(), goalPayload()]);
    expect(text(first?.data)).not.toBe(text(second?.data));
  });

  it('reads a history written with key A after key B becomes current, A still known; writes new payloads with B', async () => {
    const [writtenWithA] = await new EncryptionCodec(keysOf(`a:${keyA}`)).encode([goalPayload()]);
    const rotated = new EncryptionCodec(keysOf(`b:${keyB}`, `a:${keyA}`));
    const [opened] = await rotated.decode([writtenWithA as Payload]);
    expect(defaultPayloadConverter.fromPayload<{ goal: string }>(opened as Payload).goal).toContain(MARKER);
    const [writtenWithB] = await rotated.encode([goalPayload()]);
    expect(text(writtenWithB?.metadata?.[KEY_ID_METADATA])).toBe('b');
    // A host that only knows A cannot read what B wrote, and says which key it lacks.
    await expect(new EncryptionCodec(keysOf(`a:${keyA}`)).decode([writtenWithB as Payload])).rejects.toThrow(
      /encrypted with key id "b", which the test keys does not hold \(it holds "a"\): add the line of key "b"/,
    );
  });

  it('refuses a payload of a key id it does not know, naming the id and the fix but no key', async () => {
    const [sealed] = await new EncryptionCodec(keysOf(`old:${keyA}`)).encode([goalPayload()]);
    const error = await new EncryptionCodec(keysOf(`new:${keyB}`))
      .decode([sealed as Payload])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PayloadCodecError);
    expect((error as Error).message).toContain('key id "old"');
    expect((error as Error).message).not.toContain(keyA);
    expect((error as Error).message).not.toContain(keyB);
  });

  it('refuses an encrypted payload on a host with no key, naming the variables to set', async () => {
    const [sealed] = await new EncryptionCodec(keysOf(`a:${keyA}`)).encode([goalPayload()]);
    await expect(new EncryptionCodec(undefined).decode([sealed as Payload])).rejects.toThrow(
      /encrypted with key id "a" but this host has no payload key: set TASKLOOP_CODEC_KEYS or TASKLOOP_CODEC_KEY_FILE/,
    );
  });

  it.each([
    ['a flipped ciphertext byte', (data: Buffer) => (data[20] = (data[20] as number) ^ 1)],
    ['a flipped tag byte', (data: Buffer) => (data[data.length - 1] = (data[data.length - 1] as number) ^ 1)],
    ['a flipped IV byte', (data: Buffer) => (data[0] = (data[0] as number) ^ 1)],
  ])('refuses a tampered payload (%s)', async (_what, tamper) => {
    const codec = new EncryptionCodec(keysOf(`a:${keyA}`));
    const [sealed] = await codec.encode([goalPayload()]);
    const data = Buffer.from(sealed?.data as Uint8Array);
    tamper(data);
    await expect(codec.decode([{ ...sealed, data }])).rejects.toThrow(
      /key id "a" failed its authentication check: it was altered after it was written/,
    );
  });

  it('refuses a payload relabelled with another known key id (the id is authenticated)', async () => {
    const codec = new EncryptionCodec(keysOf(`a:${keyA}`, `b:${keyB}`));
    const [sealed] = await codec.encode([goalPayload()]);
    const relabelled = { ...sealed, metadata: { ...sealed?.metadata, [KEY_ID_METADATA]: Buffer.from('b') } };
    await expect(codec.decode([relabelled])).rejects.toThrow(/key id "b" failed its authentication check/);
  });

  it('binds the key id into the cipher: under another id holding the same key bytes, it does not decrypt', async () => {
    // Same bytes under both ids: only the id in the authenticated data tells them apart (the line that wires it).
    const codec = new EncryptionCodec(keysOf(`a:${keyA}`, `b:${keyA}`));
    const [sealed] = await codec.encode([goalPayload()]);
    const [opened] = await codec.decode([sealed!]);
    expect(defaultPayloadConverter.fromPayload(opened!)).toEqual(defaultPayloadConverter.fromPayload(goalPayload()));
    const relabelled = { ...sealed, metadata: { ...sealed?.metadata, [KEY_ID_METADATA]: Buffer.from('b') } };
    await expect(codec.decode([relabelled])).rejects.toThrow(/key id "b" failed its authentication check/);
  });

  it('passes through payloads that are not encrypted, so histories from before a key was set still read', async () => {
    const codec = new EncryptionCodec(keysOf(`a:${keyA}`));
    const clear = [goalPayload(), defaultPayloadConverter.toPayload(undefined), defaultPayloadConverter.toPayload(7)];
    expect(await codec.decode(clear)).toEqual(clear);
  });

  it('without keys encodes nothing: payloads leave as they came', async () => {
    const payloads = [goalPayload()];
    expect(await new EncryptionCodec(undefined).encode(payloads)).toBe(payloads);
  });

  it('round-trips binary data, empty data and metadata of several entries', async () => {
    const codec = new EncryptionCodec(keysOf(`a:${keyA}`));
    const odd: Payload[] = [
      {
        metadata: { encoding: Buffer.from('binary/plain'), 'x-extra': Buffer.from([0, 255, 7]) },
        data: randomBytes(5000),
      },
      { metadata: { encoding: Buffer.from('binary/null') }, data: new Uint8Array(0) },
    ];
    const opened = await codec.decode(await codec.encode(odd));
    expect(opened.map((p) => [text(p.metadata?.encoding), text(p.metadata?.['x-extra']), text(p.data)])).toEqual(
      odd.map((p) => [text(p.metadata?.encoding), text(p.metadata?.['x-extra']), text(p.data)]),
    );
  });
});
