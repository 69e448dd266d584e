import { CodecConfigError } from '../platform/codec/codec-keys.js';

// The few error kinds the CLI turns into exit codes: 2 for usage or input errors, 1 for everything else.
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The work itself failed (a task ended FAILED): exit 1 with the outcome already printed. */
export class WorkFailed extends Error {
  override name = 'WorkFailed';
}

export function exitCodeFor(error: unknown): number {
  // Bad payload keys are bad input too: the message names the variable and the fix.
  return error instanceof UsageError || error instanceof CodecConfigError ? 2 : 1;
}
