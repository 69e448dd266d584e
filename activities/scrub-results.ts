// The last gate before Temporal's history: every activity's result and failure message, with the values of the
// task's declared secrets and of the worker's secret-named variables removed from every string in it — file names,
// paths and keys included, not only text bodies. Repository code chooses file names: one named after a secret's
// value would otherwise reach `changedFiles`, the failure record and `status --json`, though the review refuses it.
import { ApplicationFailure } from '@temporalio/common';
import { redactPath } from '../domain/path-findings.js';
import { encodedSecretForms } from '../domain/secret-forms.js';
import { scrubSecrets, scrubText } from '../domain/secrets.js';
import { resolveSecretValues } from './secret-values.js';

/** The declared secret names an activity's input carries (at its top, or in its review settings). */
export function declaredNamesOf(input: unknown): string[] {
  if (input === null || typeof input !== 'object') return [];
  const record = input as { secretEnvNames?: unknown; review?: { secretEnvNames?: unknown } };
  const names = record.secretEnvNames ?? record.review?.secretEnvNames;
  return Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : [];
}

/** The failure with its message scrubbed: an ApplicationFailure keeps its type, retryability and details. */
function scrubbedFailure(error: unknown, secretValues: string[]): unknown {
  if (!(error instanceof Error)) return error;
  const message = scrubText(error.message, secretValues);
  if (error instanceof ApplicationFailure) {
    // The details too (a coder's spending, a file list): a secret there need not show in the message.
    const details = error.details ? scrubSecrets([...error.details], secretValues) : undefined;
    if (message === error.message && JSON.stringify(details) === JSON.stringify(error.details)) return error;
    return ApplicationFailure.create({
      message,
      type: error.type ?? undefined,
      nonRetryable: error.nonRetryable ?? undefined,
      details,
      ...(error.nextRetryDelay !== undefined ? { nextRetryDelay: error.nextRetryDelay } : {}),
      cause: error.cause,
    });
  }
  if (message !== error.message) error.message = message;
  return error;
}

type AnyActivity = (...args: never[]) => Promise<unknown>;

// The wrappers this module made: a unit test checks that every activity a worker registers is one of them.
const scrubbing = new WeakSet<AnyActivity>();

/** True when `activity` is a wrapper made by scrubbingResults (its result and failures pass the scrub). */
export function isScrubbingActivity(activity: unknown): boolean {
  return typeof activity === 'function' && scrubbing.has(activity as AnyActivity);
}

/** Each activity of `activities`, its result and failure scrubbed (see above); names and arguments unchanged. */
export function scrubbingResults<T extends Record<string, AnyActivity>>(activities: T): T {
  const wrapped: Record<string, AnyActivity> = {};
  for (const [name, activity] of Object.entries(activities)) {
    const wrapper = async (...args: never[]) => {
      // Their base64 (at any alignment) and hex forms too: a file may be named after a secret encoded
      // (domain/secret-forms.ts), or split across two folders (`dir_abc/def.txt`: domain/path-findings.ts).
      const secretValues = encodedSecretForms(resolveSecretValues(declaredNamesOf(args[0])));
      try {
        return redactSplitPaths(scrubSecrets(await activity(...args), secretValues), secretValues);
      } catch (error) {
        throw scrubbedFailure(error, secretValues);
      }
    };
    scrubbing.add(wrapper);
    wrapped[name] = wrapper;
  }
  return wrapped as T;
}

/** Every string of `value` with a secret's form split across path separators redacted (object keys are scrubbed). */
function redactSplitPaths<T>(value: T, forms: string[]): T {
  if (forms.length === 0) return value;
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return redactPath(item, forms);
    if (Array.isArray(item)) return item.map(walk);
    if (item === null || typeof item !== 'object') return item;
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(item))
      Object.defineProperty(copy, key, { value: walk(inner), enumerable: true, writable: true, configurable: true });
    return copy;
  };
  return walk(value) as T;
}
