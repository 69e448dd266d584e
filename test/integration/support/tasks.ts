// Starting and observing task workflows in integration tests, the way the CLI does it.
import type { Client, WorkflowHandle } from '@temporalio/client';
import { execa } from 'execa';
import { readFile } from 'node:fs/promises';
import { parseTaskSpec, type TaskSpec, type TaskSpecInput } from '../../../domain/task-spec.js';
import type { TaskEvent } from '../../../domain/events.js';
import type { TaskState } from '../../../domain/task-state.js';
import { startTask } from '../../../client/tasks/start-task.js';
import { stateQuery } from '../../../workflows/messages.js';
import type { taskWorkflow } from '../../../workflows/task.js';
import { eventually, uniqueId } from './temporal.js';

/**
 * The default project of this test file's tasks. One per file: a project's learning workflow runs on
 * the queue of the file that first failed in it, and a file's queue has no worker once that file is done.
 */
const fileProject = uniqueId('itest');

export function taskSpec(input: Omit<TaskSpecInput, 'id'> & { id?: string }): TaskSpec {
  const parsed = parseTaskSpec({ id: uniqueId('t'), project: fileProject, ...input });
  if (!parsed.success) throw new Error(parsed.error);
  return parsed.data;
}

export async function startTestTask(
  client: Client,
  taskQueue: string,
  spec: TaskSpec,
): Promise<WorkflowHandle<typeof taskWorkflow>> {
  const { handle } = await startTask(client, spec, { taskQueue });
  return handle;
}

export { taskOutcome } from '../../support/task-outcome.js';

/** Waits until the task's state satisfies `predicate` (queried, so it sees the live state). */
export function waitForState(
  handle: WorkflowHandle,
  what: string,
  predicate: (state: TaskState) => boolean,
  timeoutMs = 60_000,
): Promise<TaskState> {
  return eventually(
    what,
    async () => {
      // Before its first workflow task the workflow has no query handler yet: that is "not yet", not a failure.
      const state = await handle.query(stateQuery).catch((error: Error) => {
        if (error.name === 'QueryNotRegisteredError') return undefined;
        throw error;
      });
      return state && predicate(state) ? state : undefined;
    },
    timeoutMs,
  );
}

/**
 * Waits until the workflow has nothing left to do by itself: no activity and no workflow task pending. A held
 * (paused) task reaches this and stays; one that went on would have scheduled its next node first. A condition to
 * wait on instead of a fixed sleep.
 */
export async function waitUntilIdle(handle: WorkflowHandle, what: string, timeoutMs = 60_000): Promise<void> {
  let seen = '';
  await eventually(
    what,
    async () => {
      const { raw } = await handle.describe();
      const pending = raw.pendingActivities?.map((activity) => activity.activityType?.name) ?? [];
      seen = `pending activities [${pending.join(', ')}], a workflow task ${raw.pendingWorkflowTask ? '' : 'not '}pending`;
      return pending.length === 0 && !raw.pendingWorkflowTask ? true : undefined;
    },
    timeoutMs,
  ).catch((error: Error) => {
    throw new Error(`${error.message} (last seen: ${seen})`);
  });
}

export async function readEvents(file: string): Promise<TaskEvent[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TaskEvent);
}

export async function git(repo: string, ...args: string[]): Promise<string> {
  return (await execa('git', args, { cwd: repo })).stdout;
}

/** Commits on `branch` that carry a Taskloop-Run trailer. */
export async function taskloopCommits(repo: string, branch: string): Promise<string[]> {
  const log = await git(repo, 'log', '--format=%H %(trailers:key=Taskloop-Run,valueonly,separator=%x2C)', branch);
  return log.split('\n').filter((line) => line.split(' ')[1]);
}
