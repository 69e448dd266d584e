// Strict flag parsing for `npm run bench`: --runs N and --only <benchmark>[,<benchmark>...].

export interface BenchArgs {
  /** Timed runs of every benchmark; undefined leaves each its own default. */
  runs?: number;
  /** Run only these benchmarks; undefined runs all. */
  only?: string[];
}

export type ParseBenchArgsResult = { success: true; data: BenchArgs } | { success: false; error: string };

/** Parses `--runs N` and `--only <name>` (one of `known`); refuses anything else by name. */
export function parseBenchArgs(argv: string[], known: string[]): ParseBenchArgsResult {
  const data: BenchArgs = {};
  for (let index = 0; index < argv.length; index += 1) {
    const [flag, inline] = splitFlag(argv[index] ?? '');
    const value = inline ?? argv[index + 1];
    if (flag !== '--runs' && flag !== '--only') {
      return {
        success: false,
        error: `unknown argument ${JSON.stringify(flag)}; use --runs N and --only <${known.join('|')}>`,
      };
    }
    if (value === undefined)
      return {
        success: false,
        error: `${flag} needs a value, e.g. ${flag === '--runs' ? '--runs 5' : `--only ${known[0]}`}`,
      };
    if (inline === undefined) index += 1;
    if (flag === '--runs') {
      const runs = Number(value);
      if (!Number.isInteger(runs) || runs < 1 || runs > 1000) {
        return { success: false, error: `--runs must be a whole number from 1 to 1000; got ${JSON.stringify(value)}` };
      }
      data.runs = runs;
    } else {
      const unknown = value.split(',').find((name) => !known.includes(name));
      if (unknown !== undefined)
        return {
          success: false,
          error: `--only ${JSON.stringify(unknown)} is not a benchmark; choose one or more (comma-separated) of: ${known.join(', ')}`,
        };
      data.only = value.split(',');
    }
  }
  return { success: true, data };
}

function splitFlag(arg: string): [string, string | undefined] {
  const equals = arg.indexOf('=');
  return equals > 0 && arg.startsWith('--') ? [arg.slice(0, equals), arg.slice(equals + 1)] : [arg, undefined];
}
