// Strict flag parsing for `npm run bench`: --runs N and --only <benchmark>.

export interface BenchArgs {
  runs: number;
  /** Run only this benchmark; undefined runs all. */
  only?: string;
}

export type ParseBenchArgsResult = { success: true; data: BenchArgs } | { success: false; error: string };

/** Parses `--runs N` (default 5) and `--only <name>` (one of `known`); refuses anything else by name. */
export function parseBenchArgs(argv: string[], known: string[]): ParseBenchArgsResult {
  const data: BenchArgs = { runs: 5 };
  for (let index = 0; index < argv.length; index += 1) {
    const [flag, inline] = splitFlag(argv[index] ?? '');
    const value = inline ?? argv[index + 1];
    if (flag !== '--runs' && flag !== '--only') {
      return { success: false, error: `unknown argument ${JSON.stringify(flag)}; use --runs N and --only <${known.join('|')}>` };
    }
    if (value === undefined) return { success: false, error: `${flag} needs a value, e.g. ${flag === '--runs' ? '--runs 5' : `--only ${known[0]}`}` };
    if (inline === undefined) index += 1;
    if (flag === '--runs') {
      const runs = Number(value);
      if (!Number.isInteger(runs) || runs < 1 || runs > 1000) {
        return { success: false, error: `--runs must be a whole number from 1 to 1000; got ${JSON.stringify(value)}` };
      }
      data.runs = runs;
    } else {
      if (!known.includes(value)) return { success: false, error: `--only ${JSON.stringify(value)} is not a benchmark; choose one of: ${known.join(', ')}` };
      data.only = value;
    }
  }
  return { success: true, data };
}

function splitFlag(arg: string): [string, string | undefined] {
  const equals = arg.indexOf('=');
  return equals > 0 && arg.startsWith('--') ? [arg.slice(0, equals), arg.slice(equals + 1)] : [arg, undefined];
}
