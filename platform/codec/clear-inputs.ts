// Clear inputs next to encrypting workers. A worker that holds payload keys refuses a task whose start input is in
// clear (unless TASKLOOP_ACCEPT_CLEAR_INPUTS=1), and says so in its identity, which every poller of a task queue
// shows (DescribeTaskQueue); a CLI without a key reads that before it starts or updates a workflow there, and stops
// before anything is stored. Why the identity: it needs no permission beyond what `run --wait` already asks, and it
// names the key id the CLI should hold.
import { CODEC_VARIABLE, CodecConfigError, KEY_FILE_VARIABLE, KEYS_VARIABLE } from './codec-keys.js';
import type { HostCodec } from './host-codec.js';

export const ACCEPT_CLEAR_VARIABLE = 'TASKLOOP_ACCEPT_CLEAR_INPUTS';
/** What a refusing worker adds to its identity, before its current key id. */
const IDENTITY_MARK = ' encrypts:';

/** A keyless CLI next to encrypting workers, or a clear input at one: the message names both fixes. */
export class ClearInputRefused extends CodecConfigError {
  override name = 'ClearInputRefused';
}

/** True when this worker refuses clear task inputs: it holds keys and was not told to accept them. */
export function refusesClearInputs(host: HostCodec, env: NodeJS.ProcessEnv = process.env): boolean {
  const accept = env[ACCEPT_CLEAR_VARIABLE]?.trim() ?? '';
  if (!['', '0', '1'].includes(accept))
    throw new CodecConfigError(
      `${ACCEPT_CLEAR_VARIABLE}=${JSON.stringify(accept)} is not a setting: give 1 to accept task inputs stored in clear, or leave it unset`,
    );
  return host.keys !== undefined && accept !== '1';
}

/** The worker identity's suffix when it refuses clear inputs, naming its current key id (empty otherwise). */
export function encryptingIdentitySuffix(keyId: string | undefined): string {
  return keyId === undefined ? '' : `${IDENTITY_MARK}${keyId}`;
}

/** The key id a poller's identity says its worker encrypts with, when it refuses clear inputs. */
export function encryptingKeyId(identity: string): string | undefined {
  const at = identity.lastIndexOf(IDENTITY_MARK);
  return at < 0 ? undefined : identity.slice(at + IDENTITY_MARK.length);
}

/** What a keyless CLI says when the workers of `taskQueue` encrypt: nothing was stored. */
export function keylessClientMessage(taskQueue: string, keyId: string): string {
  return (
    `the workers serving task queue ${taskQueue} encrypt payloads (key id "${keyId}") and refuse inputs stored in clear, ` +
    `and this command has no payload key, so nothing was started or sent: set ${KEYS_VARIABLE} or ${KEY_FILE_VARIABLE} ` +
    `to the workers' keys (docs/security.md#encrypted-payloads), or start the workers with ${ACCEPT_CLEAR_VARIABLE}=1 to accept clear inputs`
  );
}

/** What a worker fails a task with whose start input is in clear. */
export function clearStartInputMessage(encoding: string): string {
  return (
    `this task's start input is stored in clear (encoding ${encoding}), and this worker holds payload keys: ` +
    `it was started by a client without ${KEYS_VARIABLE} or ${KEY_FILE_VARIABLE} (or with ${CODEC_VARIABLE}=none), ` +
    `so its goal is readable on the server. Start it again from a client with the workers' keys, ` +
    `or set ${ACCEPT_CLEAR_VARIABLE}=1 on the workers to accept clear inputs`
  );
}
