// A waiting command (`run --wait`, `watch`, `schedule --wait`) outlives a server restart: a call that fails because
// the server went away is tried again with backoff on the same connection (gRPC reconnects the channel by itself),
// with one line when the server is lost and one when it is back. The work runs on the server either way.
import { WorkFailed } from '../cli-errors.js';

/** Runs a call to Temporal, riding out a lost server; any other error passes through unchanged. */
export type Reconnect = <T>(call: () => Promise<T>) => Promise<T>;

/** For one-shot commands: a lost server is an error at once. */
export const noReconnect: Reconnect = (call) => call();

export interface ReconnectOptions {
  /** How long the server may stay away before the command gives up (default 10 minutes). */
  giveUpAfterMs?: number;
  firstDelayMs?: number;
  maxDelayMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const GRPC_UNAVAILABLE = 14;

/** True for the errors a server that went away produces (refused, reset, channel gone), wherever in the causes. */
export function isConnectionLoss(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as Error).cause, depth++) {
    if ((cause as { code?: unknown }).code === GRPC_UNAVAILABLE) return true;
    if (
      /Channel has been shut down|ECONNREFUSED|ECONNRESET|Connection refused|No connection established/i.test(
        String((cause as Error).message ?? ''),
      )
    )
      return true;
  }
  return false;
}

/** A few words for why the server is gone, from the deepest message that says it. */
export function lossReason(error: unknown): string {
  const text: string[] = [];
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as Error).cause, depth++)
    text.push(String((cause as Error).message ?? ''));
  const all = text.join(' ');
  if (/ECONNREFUSED|Connection refused/i.test(all)) return 'connection refused';
  if (/ECONNRESET|reset/i.test(all)) return 'connection reset';
  return 'server unavailable';
}

export function createReconnect(
  address: string,
  say: (line: string) => void,
  options: ReconnectOptions = {},
): Reconnect {
  const {
    giveUpAfterMs = 10 * 60_000,
    firstDelayMs = 500,
    maxDelayMs = 5_000,
    now = Date.now,
    sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  } = options;
  // Shared by every call of the command, so concurrent polls say "lost" and "back" once between them.
  let downSince: number | undefined;
  return async <T>(call: () => Promise<T>): Promise<T> => {
    for (let delay = firstDelayMs; ; delay = Math.min(delay * 2, maxDelayMs)) {
      try {
        const result = await call();
        if (downSince !== undefined) {
          say(`reconnected to the Temporal server at ${address} after ${Math.round((now() - downSince) / 1000)} s`);
          downSince = undefined;
        }
        return result;
      } catch (error) {
        if (!isConnectionLoss(error)) throw error;
        if (downSince === undefined) {
          downSince = now();
          say(
            `lost the Temporal server at ${address} (${lossReason(error)}); reconnecting with backoff until it is back (the work goes on there)`,
          );
        }
        if (now() - downSince >= giveUpAfterMs)
          throw new WorkFailed(
            `taskloop: the Temporal server at ${address} has been unreachable for ${Math.round(giveUpAfterMs / 60_000)} min; stopped waiting (its work goes on when the server is back: taskloop watch ID)`,
          );
        await sleep(delay);
      }
    }
  };
}
