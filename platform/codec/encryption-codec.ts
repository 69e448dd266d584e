// The payload codec of every taskloop client and worker: AES-256-GCM over each payload's proto bytes with the current
// key, the key's id in the metadata so any known key decrypts (rotation). Payloads not encrypted pass through, so
// histories written before a key was set still read and replay.
import type { Payload, PayloadCodec } from '@temporalio/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { CodecKeys } from './codec-keys.js';
import { KEY_FILE_VARIABLE, KEYS_VARIABLE } from './codec-keys.js';
import { decodePayloadBytes, encodePayloadBytes } from './payload-bytes.js';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';
const CIPHER = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SECURITY_DOC = 'docs/security.md#encrypted-payloads';

/** A payload this host cannot decrypt: the message names the key id and the fix, never key bytes or plaintext. */
export class PayloadCodecError extends Error {
  override name = 'PayloadCodecError';
}

const text = (bytes: Uint8Array | null | undefined) => (bytes ? Buffer.from(bytes).toString('utf8') : undefined);

/**
 * A key id as messages show it: quoted, cut to 64 characters, every character outside printable ASCII written as
 * `\u{…}`. The id of a payload is whatever its writer put there: raw, a newline would forge a line of the codec
 * server's log, and a terminal control sequence would reach whoever reads it.
 */
export function shownKeyId(id: string): string {
  const cut = id.length > 64 ? `${id.slice(0, 64)}…` : id;
  return `"${cut.replace(/[^\x20-\x7e…]|["\\]/g, (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`)}"`;
}

/**
 * Where this host's keys come from, without the file a source names (`TASKLOOP_CODEC_KEY_FILE (/path)` → the variable):
 * a codec server's reply must not name a file of its host.
 */
const keysVariable = (keys: CodecKeys) => keys.source.replace(/ \(.*\)$/, '');

export function isEncrypted(payload: Payload): boolean {
  return text(payload.metadata?.encoding) === ENCRYPTED_ENCODING;
}

export class EncryptionCodec implements PayloadCodec {
  /** Without keys the codec encrypts nothing, and names the missing key when it meets an encrypted payload. */
  constructor(readonly keys: CodecKeys | undefined) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const keys = this.keys;
    if (!keys) return payloads;
    return payloads.map((payload) => encryptPayload(payload, keys));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => (isEncrypted(payload) ? decryptPayload(payload, this.keys) : payload));
  }
}

function encryptPayload(payload: Payload, keys: CodecKeys): Payload {
  const { id, key } = keys.current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(CIPHER, key, iv);
  // The key id is authenticated too: a payload relabelled with another id fails, it does not decrypt to garbage.
  cipher.setAAD(Buffer.from(id, 'utf8'));
  const sealed = Buffer.concat([iv, cipher.update(encodePayloadBytes(payload)), cipher.final(), cipher.getAuthTag()]);
  return {
    metadata: { encoding: Buffer.from(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: Buffer.from(id, 'utf8') },
    data: sealed,
  };
}

function decryptPayload(payload: Payload, keys: CodecKeys | undefined): Payload {
  const id = text(payload.metadata?.[KEY_ID_METADATA]);
  if (!id)
    throw new PayloadCodecError(
      `an encrypted payload names no key id (metadata ${KEY_ID_METADATA}): it was not written by taskloop's codec`,
    );
  const shown = shownKeyId(id);
  if (!keys)
    throw new PayloadCodecError(
      `a payload is encrypted with key id ${shown} but this host has no payload key: set ${KEYS_VARIABLE} or ${KEY_FILE_VARIABLE} to keys that include ${shown} (${SECURITY_DOC})`,
    );
  const known = keys.byId.get(id);
  if (!known)
    throw new PayloadCodecError(
      `a payload is encrypted with key id ${shown}, which ${keysVariable(keys)} does not hold (it holds ${[...keys.byId.keys()].map(shownKeyId).join(', ')}): add the line of key ${shown} after the current key; a rotated-out key is needed until every history it wrote is gone (${SECURITY_DOC})`,
    );
  const data = Buffer.from(payload.data ?? new Uint8Array(0));
  if (data.length < IV_BYTES + TAG_BYTES)
    throw new PayloadCodecError(
      `a payload encrypted with key id ${shown} is ${data.length} bytes, too short to hold its IV and tag: it was cut or altered`,
    );
  const decipher = createDecipheriv(CIPHER, known.key, data.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(id, 'utf8'));
  decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new PayloadCodecError(
      `a payload encrypted with key id ${shown} failed its authentication check: it was altered after it was written, or the key named ${shown} here is not the one that encrypted it; nothing was decrypted`,
    );
  }
  return decodePayloadBytes(plain);
}
