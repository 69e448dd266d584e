// One timed taskloop task on a bench project (scripted coder), start -> result, with its workflow history.
import type { Client } from '@temporalio/client';
import { performance } from 'node:perf_hooks';
import { startTask } from '../../client/tasks/start-task.js';
import { parseTaskSpec, type TaskSpecInput } from '../../domain/task-spec.js';
import type { TaskOutcome } from '../../domain/task-state.js';
import { readHistoryTimes, type HistoryEvent, type HistoryTimes } from './history-times.js';
import type { BenchProject } from './projects.js';

export interface TaskloopRun {
  ms: number;
  outcome?: TaskOutcome;
  /** The task's workflow history. */
  history: HistoryEvent[];
  times: HistoryTimes;
}

export interface TaskloopRunOptions {
  client: Client;
  taskQueue: string;
  project: BenchProject;
  taskId: string;
  /** Spec fields beyond id, project, repo, goal and the scripted coder. */
  spec?: Partial<TaskSpecInput>;
}

/** Starts the task and awaits its outcome (undefined when the workflow failed), as a user's script would. */
export async function startAndAwaitTask(options: TaskloopRunOptions) {
  const { project } = options;
  const parsed = parseTaskSpec({
    id: options.taskId,
    project: 'bench',
    repo: project.repo,
    goal: 'Make the scripted edit',
    models: { coder: `scripted:${project.scriptFile}` },
    ...(project.testCommand ? { testCommand: project.testCommand } : {}),
    ...options.spec,
  });
  if (!parsed.success) throw new Error(`the bench task spec is invalid:\n${parsed.error}`);
  const started = performance.now();
  const { handle } = await startTask(options.client, parsed.data, { taskQueue: options.taskQueue });
  // A FAILED task may end its workflow as failed: that is an outcome here, not an error.
  const outcome = (await handle.result().catch(() => undefined)) as TaskOutcome | undefined;
  return { ms: performance.now() - started, outcome, handle };
}

/** Runs the task through the workflow, then reads its history; a failed task is returned, not thrown. */
export async function runTaskloopTask(options: TaskloopRunOptions): Promise<TaskloopRun> {
  const { ms, outcome, handle } = await startAndAwaitTask(options);
  const events = (await handle.fetchHistory()).events ?? [];
  return { ms, outcome, history: events, times: readHistoryTimes(events) };
}

/** Like runTaskloopTask, but throws unless the task COMPLETED at attempt 1 (a bench of a failure means nothing). */
export async function timeTaskloopRun(options: TaskloopRunOptions): Promise<TaskloopRun> {
  const result = await runTaskloopTask(options);
  const { outcome } = result;
  if (outcome?.status !== 'COMPLETED' || outcome.attempts.length !== 1) {
    const failure = outcome?.attempts.at(-1)?.failure;
    throw new Error(
      `taskloop task ${options.taskId} ended ${outcome?.status ?? 'as a failed workflow'} after ${outcome?.attempts.length ?? '?'} attempt(s), expected COMPLETED at attempt 1` +
        `: ${outcome?.reason ?? failure?.reason ?? 'no reason recorded'}`,
    );
  }
  return result;
}
