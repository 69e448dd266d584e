// bench/events: history events per attempt, counted from the real history of a passing task (one attempt) and of
// a failing one (two attempts whose tests fail), with the events of each kind, so a reader sees where they go.
import { wrongTurns } from '../test/support/calc-project.js';
import { atMost, count } from './lib/figures.js';
import { formatTable } from './lib/table.js';
import type { Benchmark, BenchResult } from './lib/types.js';
import { calcProject } from './overhead/projects.js';
import { runTaskloopTask } from './overhead/taskloop-run.js';

type HistoryEvent = Record<string, unknown>;

/** The event's kind, from the one `...EventAttributes` field it carries (e.g. "activityTaskScheduled"). */
function kindOf(event: HistoryEvent): string {
  const key = Object.keys(event).find((name) => name.endsWith('EventAttributes') && event[name]);
  return key ? key.replace(/EventAttributes$/, '') : 'unknown';
}

function countKinds(events: HistoryEvent[]): Map<string, number> {
  const kinds = new Map<string, number>();
  for (const event of events) kinds.set(kindOf(event), (kinds.get(kindOf(event)) ?? 0) + 1);
  return kinds;
}

/** Attempts in a history: one claim is scheduled per attempt (activity retries are not scheduled again). */
function attemptsIn(events: HistoryEvent[]): number {
  const claims = events.filter(
    (event) =>
      (event.activityTaskScheduledEventAttributes as { activityType?: { name?: string } } | undefined)?.activityType
        ?.name === 'claimWorktree',
  );
  return Math.max(1, claims.length);
}

export const eventsBenchmark: Benchmark = {
  name: 'events',
  defaultRuns: 1,
  async run(context): Promise<BenchResult> {
    const stack = await context.stack();
    const passing = await calcProject();
    const failing = await calcProject({}, undefined, [...wrongTurns(), ...wrongTurns()]);
    try {
      const tag = Date.now().toString(36);
      const pass = await runTaskloopTask({
        client: stack.client,
        taskQueue: stack.taskQueue,
        project: passing,
        taskId: `ev-pass-${tag}`,
      });
      const fail = await runTaskloopTask({
        client: stack.client,
        taskQueue: stack.taskQueue,
        project: failing,
        taskId: `ev-fail-${tag}`,
        spec: { maxRetries: 1 },
      });
      if (pass.outcome?.status !== 'COMPLETED')
        throw new Error(`the passing events task ended ${pass.outcome?.status ?? 'as a failed workflow'}`);
      const [passAttempts, failAttempts] = [pass, fail].map((run) =>
        attemptsIn(run.history as unknown as HistoryEvent[]),
      ) as [number, number];
      const [passKinds, failKinds] = [pass, fail].map((run) =>
        countKinds(run.history as unknown as HistoryEvent[]),
      ) as [Map<string, number>, Map<string, number>];
      const kinds = [...new Set([...passKinds.keys(), ...failKinds.keys()])].sort();
      const rows = kinds.map((kind) => [kind, String(passKinds.get(kind) ?? 0), String(failKinds.get(kind) ?? 0)]);
      rows.push(['total', String(pass.history.length), String(fail.history.length)]);
      const section = formatTable(
        ['history events by kind', `passing (${passAttempts} attempt)`, `failing (${failAttempts} attempts)`],
        rows,
        [1, 2],
      );
      return {
        figures: [
          atMost('history events per attempt, passing', pass.history.length / passAttempts, 30, count),
          atMost('history events per attempt, failing', fail.history.length / failAttempts, 30, count),
        ],
        sections: [section],
      };
    } finally {
      await passing.cleanup();
      await failing.cleanup();
    }
  },
};
