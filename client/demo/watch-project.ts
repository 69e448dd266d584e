// Live progress of a project in the terminal: one line whenever a task changes state, phase or attempt, and a
// progress bar; returns when the project workflow has ended.
import type { WorkflowHandle } from '@temporalio/client';
import type { ProjectStateView, ProjectTaskView } from '../../domain/project/project-report.js';
import { projectStateQuery } from '../../workflows/project-messages.js';

const finished = new Set(['COMPLETED', 'FAILED', 'SKIPPED', 'CANCELLED']);

function describe(task: ProjectTaskView): string {
  const where = task.state === 'RUNNING' ? ` ${task.phase ?? 'starting'}${task.attempt ? `, attempt ${task.attempt}` : ''}` : '';
  const why = task.failureClass ? ` (${task.failureClass})` : '';
  return `${task.state}${where}${why}`;
}

function progressBar(view: ProjectStateView, width = 24): string {
  const done = view.tasks.filter((task) => finished.has(task.state)).length;
  const filled = view.tasks.length === 0 ? width : Math.round((done / view.tasks.length) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${view.tasks.length}`;
}

export async function watchProject(handle: WorkflowHandle, log: (line: string) => void, intervalMs = 400): Promise<void> {
  const seen = new Map<string, string>();
  const started = Date.now();
  let lastBar = '';
  for (;;) {
    const description = await handle.describe();
    const view = await handle.query(projectStateQuery).catch(() => undefined);
    if (view) {
      for (const task of view.tasks) {
        const line = describe(task);
        if (seen.get(task.id) !== line) {
          seen.set(task.id, line);
          log(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s  ${task.id.padEnd(18)} ${line}`);
        }
      }
      const bar = progressBar(view);
      if (bar !== lastBar) log(`  ${' '.repeat(6)}  ${bar}`);
      lastBar = bar;
    }
    if (description.status.name !== 'RUNNING') return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
