// Flags every command takes, anywhere on the line: --address and --namespace override the environment (and so
// every connection made later in this process), --no-color turns colour off.
import { UsageError } from './cli-errors.js';

const globalFlags = { '--address': 'TEMPORAL_ADDRESS', '--namespace': 'TEMPORAL_NAMESPACE' } as const;

export interface GlobalFlags {
  /** The line without the global flags, for the command's own parser. */
  rest: string[];
  /** Environment variables the flags set (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, NO_COLOR). */
  env: Record<string, string>;
}

/** Takes `--address H:P`, `--namespace NS` (or `--flag=value`) and `--no-color` out of the line. */
export function takeGlobalFlags(argv: string[]): GlobalFlags {
  const rest: string[] = [];
  const env: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const token = argv[i] as string;
    if (token === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (token === '--no-color') {
      env.NO_COLOR = '1';
      continue;
    }
    const [flag, inline] = token.includes('=')
      ? [token.slice(0, token.indexOf('=')), token.slice(token.indexOf('=') + 1)]
      : [token, undefined];
    if (!(flag in globalFlags)) {
      rest.push(token);
      continue;
    }
    const value = inline ?? argv[(i += 1)];
    if (value === undefined || value === '' || value.startsWith('--')) {
      throw new UsageError(
        `taskloop: ${flag} needs a value, e.g. ${flag === '--address' ? '--address 127.0.0.1:7233' : '--namespace default'}`,
      );
    }
    env[globalFlags[flag as keyof typeof globalFlags]] = value;
  }
  return { rest, env };
}
