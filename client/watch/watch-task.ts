// Live progress of one task in the terminal: a line whenever its status, phase or attempt changes, with the time
// since watching began (on a terminal, one line redrawn in place); returns when the task workflow has closed.
import { waitingRound } from '../../domain/approval.js';
import type { WorkflowHandle } from '@temporalio/client';
import type { TaskState } from '../../domain/task-state.js';
import { stateQuery } from '../../workflows/messages.js';
import type { BoardRow, TaskBoard } from '../output/task-board.js';
import { formatLiveEnvironment, readLiveEnvironment, type LiveEnvironment } from '../tasks/live-environment.js';
import { noReconnect, type Reconnect } from '../tasks/reconnect.js';

/** `environment` is the environment step while it runs: named in place of the phase `claim` it runs in. */
export function describeTaskProgress(state: TaskState, environment?: LiveEnvironment): string {
  const last = state.attempts.at(-1);
  const why =
    state.status === 'AWAITING_APPROVAL'
      ? ` (round ${state.review?.rounds.length ?? 1} awaits approval: taskloop review)`
      : last?.failure
        ? ` (last failure: ${last.failure.failureClass} at ${last.failure.node})`
        : '';
  const phase = environment ? formatLiveEnvironment({ ...environment, elapsedMs: undefined }) : `phase ${state.phase}`;
  return `${state.status}, ${phase}, attempt ${state.attempt}${why}`;
}

/** The board row of a task: its id, status, phase and attempt, and how long ago its workflow started. */
export function taskBoardRow(state: TaskState, startedAt: Date, now: Date, environment?: LiveEnvironment): BoardRow {
  const failure = state.attempts.at(-1)?.failure;
  const round = state.status === 'AWAITING_APPROVAL' ? waitingRound(state.review) : undefined;
  const note = round
    ? `round ${round.round} awaits approval: taskloop review (or approve / request-changes / reject ${state.taskId})`
    : environment
      ? formatLiveEnvironment(environment)
      : failure && `last failure: ${failure.failureClass} at ${failure.node}`;
  return {
    id: state.taskId,
    status: state.status,
    phase: environment ? 'env' : state.phase,
    attempt: state.attempt,
    elapsedMs: now.getTime() - startedAt.getTime(),
    ...(note ? { note } : {}),
  };
}

/** Polls until the task closes: on a terminal `board` redraws its line each poll, else `log` gets each change. */
export async function watchTask(
  handle: WorkflowHandle,
  log: (line: string) => void,
  options: { intervalMs?: number; board?: TaskBoard; reconnect?: Reconnect } = {},
): Promise<void> {
  const { intervalMs = 400, board, reconnect = noReconnect } = options;
  const started = Date.now();
  let last = '';
  for (;;) {
    const description = await reconnect(() => handle.describe());
    if (description.status.name !== 'RUNNING') return;
    // Before its first workflow task a task has no query handler; that is "not yet", so no line.
    const state = await handle.query(stateQuery).catch(() => undefined);
    const environment = readLiveEnvironment(description);
    if (state && board) board.show([taskBoardRow(state, description.startTime, new Date(), environment)]);
    const line = state ? describeTaskProgress(state, environment) : '';
    if (!board && line && line !== last) {
      last = line;
      log(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s  ${line}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
