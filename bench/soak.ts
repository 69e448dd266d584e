// `npm run soak -- --tasks N --workers W [--server dev|cluster] [--projects P] [--kill-every S] [--timeout-minutes M]`:
// scripted tasks in several projects on W worker hosts, with worker kills and a server restart; prints the checks
// and the figures (a markdown table for docs/benchmarks.md) and exits 1 when a check fails.
import { parseArgs } from 'node:util';
import { runSoak } from './soak/run-soak.js';

function intArg(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max)
    throw new Error(`soak: --${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return parsed;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      tasks: { type: 'string' },
      workers: { type: 'string' },
      projects: { type: 'string' },
      server: { type: 'string' },
      'kill-every': { type: 'string' },
      'timeout-minutes': { type: 'string' },
    },
  });
  const server = values.server ?? 'dev';
  if (server !== 'dev' && server !== 'cluster')
    throw new Error(`soak: --server is dev or cluster, got ${JSON.stringify(server)}`);
  const { checks, figures } = await runSoak({
    tasks: intArg('tasks', values.tasks, 50, 1, 100_000),
    workers: intArg('workers', values.workers, 3, 1, 32),
    projects: intArg('projects', values.projects, 4, 1, 100),
    server,
    killEverySeconds: intArg('kill-every', values['kill-every'], 60, 5, 3600),
    timeoutMinutes: intArg('timeout-minutes', values['timeout-minutes'], 120, 1, 24 * 60),
    log: (line) => console.error(line),
  });
  console.log('| figure | value |\n|---|---|');
  for (const [name, value] of figures) console.log(`| ${name} | ${value} |`);
  console.log('\n| check | result | detail |\n|---|---|---|');
  for (const check of checks) console.log(`| ${check.name} | ${check.ok ? 'ok' : 'FAILED'} | ${check.detail} |`);
  return checks.every((check) => check.ok) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
