// Strict flag parsing for every command: unknown flags and missing values are usage errors naming the flag.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './cli-errors.js';
import { parseDuration } from './tasks/duration.js';
import { closestName } from './did-you-mean.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<T extends Options>(command: string, argv: string[], options: T, allowPositionals = false) {
  let parsed;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(argv, options),
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals,
    });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    const unknown = /^Unknown option '(--[^']+)'/.exec(message)?.[1];
    const meant =
      unknown &&
      closestName(
        unknown,
        Object.keys(options).map((name) => `--${name}`),
      );
    const suggestion = meant ? `; did you mean ${meant}?` : '';
    throw new UsageError(`taskloop ${command}: ${message}${suggestion} (see taskloop ${command} --help)`);
  }
  if (probing) throw new FlagTable(command, options);
  return parsed;
}

/** What a command's parseFlags was given: thrown, in place of running on, while its table is read. */
export class FlagTable extends Error {
  override name = 'FlagTable';
  constructor(
    readonly command: string,
    readonly options: Options,
  ) {
    super(`the flags of taskloop ${command}`);
  }
}

let probing = false;

/**
 * Runs a command only as far as its flags: its parseFlags parses `argv` as always (an unknown flag is the usual
 * UsageError) and then hands over its option table instead of going on. Every command parses its flags before it
 * does anything, so completion is generated from the tables the commands really parse with.
 */
export async function readFlagTable(run: () => Promise<unknown>): Promise<FlagTable> {
  probing = true;
  try {
    await run();
  } catch (error) {
    if (error instanceof FlagTable) return error;
    throw error;
  } finally {
    probing = false;
  }
  throw new Error('the command returned without parsing its flags');
}

/**
 * `--max-retries -1` as `--max-retries=-1`: the parser would take "-1" for a flag and answer with its "ambiguous"
 * text; joined, the value reaches its own check, which names the flag, the value and the range.
 */
export function joinNegativeValues(argv: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const token = argv[i] as string;
    const next = argv[i + 1];
    if (token === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const option = token.startsWith('--') && !token.includes('=') ? options[token.slice(2)] : undefined;
    if (option?.type === 'string' && next !== undefined && /^-\.?\d/.test(next)) {
      out.push(`${token}=${next}`);
      i += 1;
    } else out.push(token);
  }
  return out;
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
