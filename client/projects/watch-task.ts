// Live progress of one task in the terminal: a line whenever its status, phase or attempt changes, with the time
// since watching began; returns when the task workflow has closed.
import type { WorkflowHandle } from '@temporalio/client';
import type { TaskState } from '../../domain/task-state.js';
import { stateQuery } from '../../workflows/messages.js';

export function describeTaskProgress(state: TaskState): string {
  const last = state.attempts.at(-1);
  const why = last?.failure ? ` (last failure: ${last.failure.failureClass} at ${last.failure.node})` : '';
  return `${state.status}, phase ${state.phase}, attempt ${state.attempt}${why}`;
}

export async function watchTask(handle: WorkflowHandle, log: (line: string) => void, intervalMs = 400): Promise<void> {
  const started = Date.now();
  let last = '';
  for (;;) {
    const description = await handle.describe();
    if (description.status.name !== 'RUNNING') return;
    // Before its first workflow task a task has no query handler; that is "not yet", so no line.
    const state = await handle.query(stateQuery).catch(() => undefined);
    const line = state ? describeTaskProgress(state) : '';
    if (line && line !== last) {
      last = line;
      log(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s  ${line}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
