// Live progress of a project in the terminal: one line whenever a task changes state, phase or attempt, and a
// progress bar (on a terminal, every task's line redrawn in place); returns when the project workflow has ended.
// Running tasks' phase and attempt come from their own `state` query (the project only learns them when a run ends).
import type { WorkflowHandle } from '@temporalio/client';
import type { ProjectStateView } from '../../domain/project/project-report.js';
import type { ProjectTaskLine } from '../../domain/project/project-task-line.js';
import type { TaskState } from '../../domain/task-state.js';
import { stateQuery } from '../../workflows/messages.js';
import { projectStateQuery } from '../../workflows/project-messages.js';
import type { BoardRow, TaskBoard } from '../output/task-board.js';
import { readProjectView } from '../projects/query-project.js';
import { noReconnect, type Reconnect } from '../tasks/reconnect.js';

const finished = new Set(['COMPLETED', 'FAILED', 'SKIPPED', 'CANCELLED']);
const CHILD_QUERY_LIMIT_MS = 2_000;

function describe(task: ProjectTaskLine, live?: TaskState): string {
  const phase = live?.phase ?? task.phase;
  const attempt = live?.attempt ?? task.attempt;
  const where = task.status === 'RUNNING' ? ` ${phase ?? 'starting'}${attempt ? `, attempt ${attempt}` : ''}` : '';
  const status = task.status === 'RUNNING' && live && live.status !== 'RUNNING' ? ` [${live.status}]` : '';
  const why = task.failureClass ? ` (${task.failureClass})` : '';
  return `${task.status}${where}${status}${why}`;
}

export function progressBar(view: ProjectStateView, width = 24): string {
  const done = view.tasks.filter((task) => finished.has(task.status)).length;
  const filled = view.tasks.length === 0 ? width : Math.round((done / view.tasks.length) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${view.tasks.length}`;
}

/** A running child's own state, or undefined when it cannot say quickly (not started yet, no worker). */
async function queryChild(handle: WorkflowHandle, workflowId: string): Promise<TaskState | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>(
    (resolve) => (timer = setTimeout(() => resolve(undefined), CHILD_QUERY_LIMIT_MS)),
  );
  const query = handle.client
    .getHandle(workflowId)
    .query(stateQuery)
    .catch(() => undefined);
  try {
    return await Promise.race([query, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A task's board row: the live phase and attempt of a running one, and its time since it started (or ran). */
export function projectBoardRow(task: ProjectTaskLine, live: TaskState | undefined, now: Date): BoardRow {
  const running = task.status === 'RUNNING';
  const status = running && live && live.status !== 'RUNNING' ? live.status : task.status;
  const startedAt = task.startedAt ? Date.parse(task.startedAt) : undefined;
  const endedAt = task.endedAt ? Date.parse(task.endedAt) : now.getTime();
  const phase = running ? (live?.phase ?? task.phase ?? 'starting') : undefined;
  const attempt = live?.attempt ?? task.attempt;
  return {
    id: task.id,
    status,
    ...(phase ? { phase } : {}),
    ...(attempt ? { attempt } : {}),
    ...(startedAt === undefined ? {} : { elapsedMs: endedAt - startedAt }),
    ...(task.failureClass ? { note: task.failureClass } : {}),
  };
}

/** Polls until the project ends: on a terminal `board` redraws every task's line each poll, else `log` gets changes. */
export async function watchProject(
  handle: WorkflowHandle,
  log: (line: string) => void,
  options: { intervalMs?: number; board?: TaskBoard; reconnect?: Reconnect } = {},
): Promise<void> {
  const { intervalMs = 400, board, reconnect = noReconnect } = options;
  const seen = new Map<string, string>();
  const started = Date.now();
  let lastBar = '';
  for (;;) {
    const description = await reconnect(() => handle.describe());
    const view = await handle.query(projectStateQuery).then(readProjectView, () => undefined);
    if (view) {
      const running = view.tasks.filter((task) => task.status === 'RUNNING');
      const live = new Map(
        await Promise.all(running.map(async (task) => [task.id, await queryChild(handle, task.workflowId)] as const)),
      );
      if (board) {
        const now = new Date();
        board.show(
          view.tasks.map((task) => projectBoardRow(task, live.get(task.id), now)),
          progressBar(view),
        );
      } else {
        for (const task of view.tasks) {
          const line = describe(task, live.get(task.id));
          if (seen.get(task.id) !== line) {
            seen.set(task.id, line);
            log(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s  ${task.id.padEnd(18)} ${line}`);
          }
        }
        const bar = progressBar(view);
        if (bar !== lastBar) log(`  ${' '.repeat(6)}  ${bar}`);
        lastBar = bar;
      }
    }
    if (description.status.name !== 'RUNNING') return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
