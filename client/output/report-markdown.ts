// The project report as Markdown, for pull requests, issues and notes: a task table and the totals.
import { describeSpendTokens } from '../../domain/token-counts.js';
import type { ProjectReport } from '../../domain/project/project-report.js';
import type { LiveProjectReport } from '../projects/live-report.js';
import { formatCounts } from './project-state.js';

const percent = (rate: number) => `${Math.round(rate * 100)}%`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/** Pipes and line breaks inside a cell would break the table. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

export function formatReportMarkdown(report: ProjectReport | LiveProjectReport): string {
  const live = 'live' in report;
  const lines = [
    `## Project ${cell(report.project)}: ${report.status}${live ? ' (in progress)' : ''}`,
    '',
    '| task | status | attempts | time | class | reason |',
    '| --- | --- | ---: | ---: | --- | --- |',
    ...report.tasks.map(
      (task) =>
        `| ${cell(task.id)} | ${task.status} | ${task.attempts} | ${seconds(task.durationMs)} | ${cell(task.failureClass ?? '')} | ${cell(task.reason ?? '')} |`,
    ),
    '',
    `- tasks: ${report.total} (${formatCounts(report.counts)})`,
    `- pass rate at attempt 1: ${percent(report.passRateAtAttempt1)}, overall: ${percent(report.passRate)}`,
  ];
  if (!('live' in report)) {
    lines.push(
      `- spend: ${report.spend.attempts} attempts, ${report.spend.modelRequests} model requests, ${describeSpendTokens(report.spend)}, ${seconds(report.spend.taskTimeMs)} of task time`,
    );
    if (report.cancelReason) lines.push(`- cancelled: ${cell(report.cancelReason)}`);
  }
  return lines.join('\n');
}
