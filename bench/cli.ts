// bench/cli: start-up of the `taskloop` bin as a user runs it (`--help`, `status ID`, `list` against the bench's
// dev server), beside the `temporal` CLI's own start-up for reference.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { atMost, ms, reference } from './lib/figures.js';
import { median } from './lib/stats.js';
import type { Benchmark, BenchResult } from './lib/types.js';
import { calcProject } from './overhead/projects.js';
import { runTaskloopTask } from './overhead/taskloop-run.js';

const run = promisify(execFile);

/** The bin package.json names, so the bench measures whatever `taskloop` runs today. */
function binPath(): string {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string> };
  return path.resolve(pkg.bin.taskloop ?? 'bin/taskloop');
}

async function timeCommand(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  const { stderr } = await run(file, args, { env }).catch((error: { code?: number; stderr?: string }) => {
    throw new Error(`${path.basename(file)} ${args.join(' ')} exited ${error.code}: ${error.stderr ?? ''}`);
  });
  const elapsed = performance.now() - started;
  // A source edited while the bench runs makes dist/ stale: the bin then runs the sources through tsx (`status` and
  // `list` took 420 to 570 ms that way here, against 150 to 230 from dist/), which would be timed as if it were the build.
  if (stderr.includes('through tsx'))
    throw new Error(
      `${path.basename(file)} ran the sources through tsx (dist/ is older than them): run \`npm run build\`, then the bench again`,
    );
  return elapsed;
}

export const cliBenchmark: Benchmark = {
  name: 'cli',
  // Nine rounds: on a shared 2-core machine one command's start-up varies by 100 ms from run to run.
  defaultRuns: 9,
  async run({ runs, log, stack: getStack }): Promise<BenchResult> {
    const stack = await getStack();
    const project = await calcProject();
    const taskId = `cli-${Date.now().toString(36)}`;
    try {
      await runTaskloopTask({ client: stack.client, taskQueue: stack.taskQueue, project, taskId });
    } finally {
      await project.cleanup();
    }
    const env: NodeJS.ProcessEnv = { ...process.env, TEMPORAL_ADDRESS: stack.address, TEMPORAL_NAMESPACE: 'default' };
    const bin = binPath();
    // Node 20 reads the whole NODE_EXTRA_CA_CERTS bundle before running any script: where it is set, as on the
    // bench machine, every Node command pays for it. bin/taskloop defers it for the commands measured here (see
    // there); the rows without it are for reference.
    const withoutExtraCerts = { ...env, NODE_EXTRA_CA_CERTS: undefined };
    const extraCerts = env.NODE_EXTRA_CA_CERTS ? ' (no NODE_EXTRA_CA_CERTS, reference)' : undefined;
    const commands: [string, string, string[], NodeJS.ProcessEnv][] = [
      ['taskloop --help', bin, ['--help'], env],
      ['taskloop status ID', bin, ['status', `task-bench-${taskId}`], env],
      ['taskloop list', bin, ['list'], env],
      ['temporal --help (reference)', stack.cliPath, ['--help'], env],
      ['node -e 0 (reference: Node alone)', process.execPath, ['-e', '0'], env],
      ...(extraCerts
        ? ([
            [`taskloop status ID${extraCerts}`, bin, ['status', `task-bench-${taskId}`], withoutExtraCerts],
            [`taskloop list${extraCerts}`, bin, ['list'], withoutExtraCerts],
            [`node -e 0${extraCerts}`, process.execPath, ['-e', '0'], withoutExtraCerts],
          ] satisfies [string, string, string[], NodeJS.ProcessEnv][])
        : []),
    ];
    const samples = new Map<string, number[]>(commands.map(([name]) => [name, []]));
    for (const [, file, args, commandEnv] of commands) await timeCommand(file, args, commandEnv); // warm-up: file cache
    // Interleaved: every command once per round.
    for (let round = 1; round <= runs; round += 1) {
      for (const [name, file, args, commandEnv] of commands)
        samples.get(name)?.push(await timeCommand(file, args, commandEnv));
    }
    log(`cli: ${commands.map(([name]) => `${name} ${Math.round(median(samples.get(name) ?? [0]))} ms`).join(', ')}`);
    return {
      figures: commands.map(([name]) => {
        const value = median(samples.get(name) ?? [0]);
        return name.includes('reference')
          ? reference(`  start-up: ${name}`, ms(value))
          : atMost(`start-up: ${name}`, value, 300, ms);
      }),
      sections: [],
    };
  },
};
