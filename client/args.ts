// Strict flag parsing for every command: unknown flags and missing values are usage errors naming the flag.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './cli-errors.js';
import { parseDuration } from './tasks/duration.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<T extends Options>(command: string, argv: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals,
    });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw new UsageError(`taskloop ${command}: ${message} (see taskloop ${command} --help)`);
  }
}

/** A whole number flag in a range, with an error naming the flag, the value and the range. */
export function intFlag(
  command: string,
  flag: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new UsageError(
      `taskloop ${command}: --${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`,
    );
  }
  return parsed;
}

/** A duration flag (30s, 10m, 1h30m, 500ms, 0) in milliseconds, through the one parser every duration flag uses. */
export function durationFlag(
  command: string,
  flag: string,
  value: string | undefined,
  fallbackMs: number,
  minMs = 0,
): number {
  if (value === undefined) return fallbackMs;
  const parsed = parseDuration(value);
  if (!parsed.success) throw new UsageError(`taskloop ${command}: --${flag}: ${parsed.error}`);
  if (parsed.data < minMs)
    throw new UsageError(`taskloop ${command}: --${flag} must be at least ${minMs} ms, got ${JSON.stringify(value)}`);
  return parsed.data;
}
