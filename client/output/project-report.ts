// The project report as a terminal table: one row per task, then rates and totals.
import { describeSpendTokens } from '../../domain/token-counts.js';
import { nextStepFor } from '../../domain/next-step.js';
import type { ProjectReport } from '../../domain/project/project-report.js';
import { formatTable } from './table.js';

const percent = (rate: number) => `${Math.round(rate * 100)}%`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

export function formatProjectReport(report: ProjectReport): string {
  const rows = report.tasks.map((task) => [
    task.id,
    task.status,
    String(task.attempts),
    seconds(task.durationMs),
    task.failureClass ?? '',
    (task.reason ?? '').slice(0, 60),
  ]);
  const table = formatTable(['task', 'status', 'attempts', 'time', 'class', 'reason'], rows);
  const counts = Object.entries(report.counts)
    .filter(([, count]) => count > 0)
    .map(([state, count]) => `${count} ${state.toLowerCase()}`)
    .join(', ');
  const next = report.tasks.flatMap((task) => {
    const step = nextStepFor({ ...task, recommendation: task.failureClass });
    return step ? [`next for ${task.id}: ${step}`] : [];
  });
  return [
    table,
    ...next,
    '',
    `tasks: ${report.total} (${counts}); pass rate at attempt 1: ${percent(report.passRateAtAttempt1)}, overall: ${percent(report.passRate)}`,
    `spend: ${report.spend.attempts} attempts, ${report.spend.modelRequests} model requests, ${describeSpendTokens(report.spend)}, ${seconds(report.spend.taskTimeMs)} of task time`,
    `telemetry: patch success ${percent(report.telemetry.patch_success_rate)} of ${report.telemetry.patch_attempts}, write-file fallbacks ${report.telemetry.write_file_fallbacks}`,
  ].join('\n');
}
