// The codec a client or worker of this host uses, from its environment, and what to tell a person about it.
import { CODEC_VARIABLE, KEY_FILE_VARIABLE, KEYS_VARIABLE, resolveCodecKeys, type CodecKeys } from './codec-keys.js';
import { EncryptionCodec } from './encryption-codec.js';

export interface HostCodec {
  codec: EncryptionCodec;
  keys: CodecKeys | undefined;
  /** `TASKLOOP_CODEC=none`: clear on purpose. */
  clearOnPurpose: boolean;
}

/** Always a codec: with keys it encrypts; without, it passes payloads through and names the key an encrypted one needs. */
export function resolveHostCodec(env: NodeJS.ProcessEnv = process.env): HostCodec {
  const keys = resolveCodecKeys(env);
  return { codec: new EncryptionCodec(keys), keys, clearOnPurpose: env[CODEC_VARIABLE]?.trim() === 'none' };
}

/** One line for a worker's start-up log. */
export function describeHostCodec({ keys, clearOnPurpose }: HostCodec): string {
  if (keys)
    return `payloads: encrypted (AES-256-GCM, current key "${keys.current.id}", ${keys.byId.size} key(s) from ${keys.source})`;
  return clearOnPurpose
    ? `payloads: in clear (${CODEC_VARIABLE}=none)`
    : `payloads: in clear (no ${KEYS_VARIABLE} or ${KEY_FILE_VARIABLE})`;
}

/** A host part of `host:port` that never leaves this machine. */
export function isLoopbackAddress(address: string): boolean {
  const host = address.startsWith('[') ? address.slice(1, address.indexOf(']')) : address.replace(/:\d+$/, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The CLI's warning when goals and hints would be stored in clear on a server of another machine; undefined on
 * loopback (the dev server's database is on this machine, beside any key), with a key, or with TASKLOOP_CODEC=none.
 */
export function clearPayloadsWarning(host: HostCodec, address: string): string | undefined {
  if (host.keys || host.clearOnPurpose || isLoopbackAddress(address)) return undefined;
  return (
    `taskloop: warning: no payload key, so goals, hints and results are stored in clear on the Temporal server at ${address}; ` +
    `set ${KEYS_VARIABLE} or ${KEY_FILE_VARIABLE} on every client and worker (docs/security.md#encrypted-payloads), or ${CODEC_VARIABLE}=none to keep them in clear on purpose`
  );
}
