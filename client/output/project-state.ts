// Human-readable text of a running project (its `state` query) and of a live report made from it.
import type { ProjectStateView } from '../../domain/project/project-report.js';
import type { LiveProjectReport } from '../projects/live-report.js';
import { formatTable } from './table.js';

const MAX_REASON_CHARS = 60;
const percent = (rate: number) => `${Math.round(rate * 100)}%`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/** The project's status line, then one row per task with where it stands. */
export function formatProjectState(view: ProjectStateView): string {
  const paused = view.paused && view.status !== 'PAUSED' ? ' (pause requested)' : '';
  const rows = view.tasks.map((task) => [
    task.id,
    task.status,
    task.phase ?? '',
    task.attempt === undefined ? '' : String(task.attempt),
    String(task.attempts),
    task.dependsOn.join(','),
    task.failureClass ?? '',
    clip(task.reason ?? ''),
  ]);
  return [
    `project ${view.project}: ${view.status}${paused}, ${view.tasks.length} tasks, concurrency ${view.concurrency}`,
    formatTable(['task', 'state', 'phase', 'attempt', 'attempts', 'depends on', 'class', 'reason'], rows),
  ].join('\n');
}

/** A report of a project still running: the task lines and the rates so far. */
export function formatLiveReport(report: LiveProjectReport): string {
  const rows = report.tasks.map((task) => [
    task.id,
    task.status,
    String(task.attempts),
    seconds(task.durationMs),
    task.failureClass ?? '',
    clip(task.reason ?? ''),
  ]);
  return [
    `project ${report.project} is ${report.status}; report so far:`,
    formatTable(['task', 'status', 'attempts', 'time', 'class', 'reason'], rows),
    '',
    `tasks: ${report.total} (${formatCounts(report.counts)}); pass rate at attempt 1 so far: ${percent(report.passRateAtAttempt1)}, overall: ${percent(report.passRate)}`,
  ].join('\n');
}

export function formatCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([state, count]) => `${count} ${state.toLowerCase()}`)
    .join(', ');
}

function clip(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length <= MAX_REASON_CHARS ? line : `${line.slice(0, MAX_REASON_CHARS - 1)}…`;
}
