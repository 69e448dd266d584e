// bench/events: history events per attempt, counted from the real histories of a task passing at attempt 1 and of
// one failing once then passing, with the events of each kind, so a reader sees where they go.
import { fixTurns, wrongTurns } from '../test/support/calc-project.js';
import { atMost, count, reference } from './lib/figures.js';
import { formatTable } from './lib/table.js';
import { activitiesIn } from '../test/support/history-activities.js';
import type { Benchmark, BenchResult } from './lib/types.js';
import { calcProject, type BenchProject } from './overhead/projects.js';
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

/** Indexes of the claims in the history: one per attempt (a local activity's marker; an activity retry adds none). */
const claimIndexes = (events: HistoryEvent[]) =>
  activitiesIn(events as never)
    .filter((activity) => activity.type === 'claimWorktree')
    .map((activity) => activity.index);

function attemptsIn(events: HistoryEvent[]): number {
  return Math.max(1, claimIndexes(events).length);
}

/**
 * The last attempt's events, from its claim's marker to the workflow's end. The workflow task that claims (its three
 * events and the upsert of the new attempt's number and phase before the marker) counts with the failing attempt
 * before it, so the failing attempt's figure (fail-then-pass minus pass), this one and the events before the first
 * claim sum to the whole history.
 */
function lastAttemptEvents(events: HistoryEvent[]): number {
  return events.length - (claimIndexes(events).at(-1) ?? 0);
}

export const eventsBenchmark: Benchmark = {
  name: 'events',
  defaultRuns: 1,
  async run(context): Promise<BenchResult> {
    const stack = await context.stack();
    const passing = await calcProject();
    const failThenPass = await calcProject({}, undefined, [...wrongTurns(), ...fixTurns()]);
    try {
      const tag = Date.now().toString(36);
      const run = (project: BenchProject, taskId: string) =>
        runTaskloopTask({ client: stack.client, taskQueue: stack.taskQueue, project, taskId, spec: { maxRetries: 1 } });
      const pass = await run(passing, `ev-pass-${tag}`);
      const retried = await run(failThenPass, `ev-retry-${tag}`);
      for (const [name, task, attempts] of [
        ['passing', pass, 1],
        ['fail-then-pass', retried, 2],
      ] as const) {
        if (task.outcome?.status !== 'COMPLETED' || task.outcome.attempts.length !== attempts)
          throw new Error(
            `the ${name} events task ended ${task.outcome?.status ?? 'as a failed workflow'} after ${task.outcome?.attempts.length ?? '?'} attempt(s), expected COMPLETED at attempt ${attempts}`,
          );
      }
      const [passEvents, retriedEvents] = [pass, retried].map((task) => task.history as unknown as HistoryEvent[]) as [
        HistoryEvent[],
        HistoryEvent[],
      ];
      const [passKinds, retriedKinds] = [passEvents, retriedEvents].map(countKinds) as [
        Map<string, number>,
        Map<string, number>,
      ];
      const kinds = [...new Set([...passKinds.keys(), ...retriedKinds.keys()])].sort();
      const rows = kinds.map((kind) => [kind, String(passKinds.get(kind) ?? 0), String(retriedKinds.get(kind) ?? 0)]);
      rows.push(['total', String(passEvents.length), String(retriedEvents.length)]);
      const section = formatTable(
        [
          'history events by kind',
          `passing (${attemptsIn(passEvents)} attempt)`,
          `fail then pass (${attemptsIn(retriedEvents)} attempts)`,
        ],
        rows,
        [1, 2],
      );
      return {
        figures: [
          reference('history events, task passing at attempt 1 (whole history)', count(passEvents.length)),
          reference('history events, task failing once then passing (whole history)', count(retriedEvents.length)),
          // A failing attempt's cost: what one more (failing) attempt adds to the history of the same task.
          atMost(
            'history events per failing attempt (fail-then-pass minus pass)',
            retriedEvents.length - passEvents.length,
            30,
            count,
          ),
          atMost(
            'history events per passing attempt (attempt 2: from its claim to the end)',
            lastAttemptEvents(retriedEvents),
            30,
            count,
          ),
        ],
        sections: [section],
      };
    } finally {
      await passing.cleanup();
      await failThenPass.cleanup();
    }
  },
};
