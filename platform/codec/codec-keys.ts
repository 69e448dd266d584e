// The payload keys of this host, from TASKLOOP_CODEC_KEYS or a key file named by TASKLOOP_CODEC_KEY_FILE: `id:base64`
// entries, the first the current key (it encrypts), every one able to decrypt, so a key can be rotated.
import { readFileSync, statSync } from 'node:fs';

export const KEYS_VARIABLE = 'TASKLOOP_CODEC_KEYS';
export const KEY_FILE_VARIABLE = 'TASKLOOP_CODEC_KEY_FILE';
/** `TASKLOOP_CODEC=none`: payloads in clear on purpose (silences the CLI's warning for a remote server). */
export const CODEC_VARIABLE = 'TASKLOOP_CODEC';

export const KEY_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
export const NEW_KEY_COMMAND = `echo "k1:$(openssl rand -base64 ${KEY_BYTES})"`;

export interface CodecKey {
  id: string;
  key: Buffer;
}

export interface CodecKeys {
  /** Encrypts every new payload. */
  current: CodecKey;
  /** Every key by id, the current one included: any of them decrypts. */
  byId: ReadonlyMap<string, CodecKey>;
  /** Where the keys came from, for messages: the variable, and the file it names. */
  source: string;
}

/** Bad key configuration: the message names the variable, what is wrong and the fix, never a key's bytes. */
export class CodecConfigError extends Error {
  override name = 'CodecConfigError';
}

/** The keys the environment configures, or undefined when none is (payloads then travel in clear). */
export function resolveCodecKeys(env: NodeJS.ProcessEnv = process.env): CodecKeys | undefined {
  const inline = env[KEYS_VARIABLE]?.trim();
  const file = env[KEY_FILE_VARIABLE]?.trim();
  const off = env[CODEC_VARIABLE]?.trim();
  if (off && off !== 'none')
    throw new CodecConfigError(
      `${CODEC_VARIABLE}=${JSON.stringify(off)} is not a setting: the only value is "none" (payloads stored in clear on purpose); unset it to encrypt with ${KEYS_VARIABLE} or ${KEY_FILE_VARIABLE}`,
    );
  if (inline && file)
    throw new CodecConfigError(
      `both ${KEYS_VARIABLE} and ${KEY_FILE_VARIABLE} are set: set one of them (the file is the one to use on a shared host)`,
    );
  if ((inline || file) && off === 'none')
    throw new CodecConfigError(
      `${CODEC_VARIABLE}=none says payloads stay in clear, but ${inline ? KEYS_VARIABLE : KEY_FILE_VARIABLE} is set: unset one of them`,
    );
  if (inline)
    return parseCodecKeys(inline.split(/[\s,]+/), (entry) => `${KEYS_VARIABLE}: entry ${entry}`, KEYS_VARIABLE);
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new CodecConfigError(
        `${KEY_FILE_VARIABLE}=${file}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? (error as Error).message})`}; give the path of a file of id:base64key lines (make one with: ${NEW_KEY_COMMAND} > keys; chmod 600 keys)`,
      );
    }
    refuseOpenKeyFile(file);
    const lines = text.split('\n').map((line) => line.trim());
    const numbered = lines.map((line, index) => ({ line, number: index + 1 }));
    const entries = numbered.filter(({ line }) => line !== '' && !line.startsWith('#'));
    return parseCodecKeys(
      entries.map(({ line }) => line),
      (entry) => `${KEY_FILE_VARIABLE} (${file}) line ${entries[entry - 1]?.number ?? entry}`,
      `${KEY_FILE_VARIABLE} (${file})`,
    );
  }
  return undefined;
}

/** Parses `id:base64` entries, the first the current key. `where(n)` names entry n (1-based) in messages. */
export function parseCodecKeys(rawEntries: string[], where: (entry: number) => string, source: string): CodecKeys {
  const entries = rawEntries.filter((entry) => entry !== '');
  if (entries.length === 0)
    throw new CodecConfigError(`${source} holds no key: give id:base64key entries, e.g. ${NEW_KEY_COMMAND}`);
  const keys = entries.map((entry, index) => parseEntry(entry, where(index + 1)));
  const byId = new Map<string, CodecKey>();
  keys.forEach((key, index) => {
    if (byId.has(key.id))
      throw new CodecConfigError(
        `${where(index + 1)}: key id "${key.id}" appears twice: give each key an id of its own`,
      );
    byId.set(key.id, key);
  });
  return { current: keys[0] as CodecKey, byId, source };
}

function parseEntry(entry: string, where: string): CodecKey {
  const colon = entry.indexOf(':');
  // The entry itself is never echoed: a mistyped one may be all key.
  if (colon < 0)
    throw new CodecConfigError(
      `${where} has no "id:" before the key: write each key as id:base64key (e.g. ${NEW_KEY_COMMAND})`,
    );
  const id = entry.slice(0, colon);
  const encoded = entry.slice(colon + 1);
  if (!KEY_ID.test(id))
    throw new CodecConfigError(
      `${where}: the key id (before the ":") must be 1 to 64 letters, digits, ".", "_" or "-"; rename it`,
    );
  if (!BASE64.test(encoded))
    throw new CodecConfigError(
      `${where} (key id "${id}"): the key is not base64 (characters other than A-Z a-z 0-9 + / =); make one with: openssl rand -base64 ${KEY_BYTES}`,
    );
  const key = Buffer.from(encoded, 'base64');
  if (key.length !== KEY_BYTES)
    throw new CodecConfigError(
      `${where} (key id "${id}"): the key is ${key.length} bytes once base64-decoded, AES-256 needs ${KEY_BYTES}; make one with: openssl rand -base64 ${KEY_BYTES}`,
    );
  return { id, key };
}

/**
 * A key file every user of the machine may read gives each of them every payload: refused, naming the fix. (Group
 * read is left to the operator: a group of its own for the workers is a way to share it.)
 */
function refuseOpenKeyFile(file: string): void {
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o004) === 0) return;
  throw new CodecConfigError(
    `${KEY_FILE_VARIABLE}=${file} is readable by every user of this machine (mode ${mode.toString(8)}), and anyone who reads it decrypts every payload: make it yours alone with chmod 600 ${file}`,
  );
}
