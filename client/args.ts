// Strict flag parsing for every command: unknown flags and missing values are usage errors naming the flag.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './cli-errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<T extends Options>(command: string, argv: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw new UsageError(`taskloop ${command}: ${message} (see taskloop ${command} --help)`);
  }
}

/** A whole number flag in a range, with an error naming the flag, the value and the range. */
export function intFlag(command: string, flag: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new UsageError(`taskloop ${command}: --${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return parsed;
}
