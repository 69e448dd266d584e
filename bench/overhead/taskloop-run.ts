// One timed taskloop run: a fresh calc project, a scripted coder that fixes it in one attempt, start -> result.
import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { startTask } from '../../client/tasks/start-task.js';
import { parseTaskSpec } from '../../domain/task-spec.js';
import { fixTurns, makeCalcProject } from '../../test/support/calc-project.js';
import type { EphemeralStack } from '../../workers/ephemeral-stack.js';
import { readHistoryTimes, type HistoryTimes } from './history-times.js';

export interface TaskloopRun {
  ms: number;
  times: HistoryTimes;
}

/** Runs the task through the workflow; throws unless it COMPLETED at attempt 1 (a bench of a failure means nothing). */
export async function timeTaskloopRun(stack: EphemeralStack, taskId: string): Promise<TaskloopRun> {
  const project = await makeCalcProject({ coder: fixTurns() });
  try {
    const parsed = parseTaskSpec({
      id: taskId,
      project: 'bench',
      repo: project.repo,
      goal: 'Fix add in calc.py',
      models: { coder: `scripted:${project.scriptFile}` },
    });
    if (!parsed.success) throw new Error(`the bench task spec is invalid:\n${parsed.error}`);

    const started = performance.now();
    const { handle } = await startTask(stack.client, parsed.data, { taskQueue: stack.taskQueue });
    const outcome = await handle.result();
    const ms = performance.now() - started;

    if (outcome.status !== 'COMPLETED' || outcome.attempts.length !== 1) {
      const failure = outcome.attempts.at(-1)?.failure;
      throw new Error(
        `taskloop run ${handle.workflowId} ended ${outcome.status} after ${outcome.attempts.length} attempt(s), expected COMPLETED at attempt 1` +
          `: ${outcome.reason ?? failure?.reason ?? 'no reason recorded'}`,
      );
    }
    const history = await handle.fetchHistory();
    return { ms, times: readHistoryTimes(history.events ?? []) };
  } finally {
    await Promise.all([project.repo, project.dir].map((dir) => rm(dir, { recursive: true, force: true })));
  }
}
