// The learning report card as terminal lines or a Markdown section: grade, rates, patterns, trends, lessons.
import { countOf } from './plural.js';
import type { ReportCard, Trend } from '../../domain/learning/report-card.js';

const percent = (rate: number) => `${Math.round(rate * 100)}%`;
const arrows = { UP: '↑', DOWN: '↓', STABLE: '→' } as const;

/** `↑ +10%` style: the arrow, the signed change and, with a previous run, where it came from. */
export function formatTrend(trend: Trend, asPercent: boolean): string {
  const show = (value: number) => (asPercent ? percent(value) : value.toFixed(2));
  if (trend.previous === undefined) return `${arrows.STABLE} (no previous run)`;
  const sign = trend.delta >= 0 ? '+' : '-';
  const delta = asPercent ? `${Math.round(Math.abs(trend.delta) * 100)}%` : Math.abs(trend.delta).toFixed(2);
  return `${arrows[trend.direction]} ${trend.direction} ${sign}${delta} (was ${show(trend.previous)})`;
}

function cardLines(card: ReportCard): { label: string; lines: string[] }[] {
  const { withSkill, withoutSkill } = card.skills;
  return [
    {
      label: 'grade',
      lines: [
        `${card.grade} (fidelity ${percent(card.fidelity)}, pass at attempt 1 ${percent(card.passRateAt1)}, novel patterns ${card.novel.count})`,
      ],
    },
    {
      label: 'pass rate',
      lines: [
        `at attempt 1 ${percent(card.passRateAt1)}, by attempt 2 ${percent(card.passRateAt2)}, of verdicts ${percent(card.passRate)}`,
      ],
    },
    {
      label: 'patterns',
      lines:
        card.patterns.length === 0
          ? ['none']
          : card.patterns.map((p) => `${p.pattern} ${p.count} (${percent(p.share)})`),
    },
    {
      label: 'novel',
      lines: [card.novel.count === 0 ? 'none' : `${card.novel.count} in ${card.novel.taskIds.join(', ')}`],
    },
    {
      label: 'trends',
      lines: [
        `fidelity ${formatTrend(card.trends.fidelity, true)}`,
        `pass@1 ${formatTrend(card.trends.passRateAt1, true)}`,
        `compression ${formatTrend(card.trends.compression, false)}`,
      ],
    },
    {
      label: 'actions',
      lines:
        card.improvementActions.length === 0
          ? ['none']
          : card.improvementActions.map((a) => `${a.pattern}: ${a.action}`),
    },
    {
      label: 'skills',
      lines: [
        `with ${countOf(withSkill.tasks, 'task')}, pass ${percent(withSkill.passRate)}; without ${countOf(withoutSkill.tasks, 'task')}, pass ${percent(withoutSkill.passRate)}`,
      ],
    },
    { label: 'lessons', lines: card.lessons.length === 0 ? ['none'] : card.lessons.map((l) => `${l.id} ${l.text}`) },
  ];
}

/** Why there is nothing to rate, or undefined: no task of the run reached a verdict (all skipped, cancelled, none). */
function nothingToRate(card: ReportCard): string | undefined {
  const { total, completed, failed } = card.tasks;
  if (completed + failed > 0) return undefined;
  return total === 0
    ? 'nothing to rate: the run has no tasks'
    : `nothing to rate: none of its ${countOf(total, 'task')} reached a verdict (skipped or cancelled)`;
}

/** The card for the terminal, after the report table. */
export function formatReportCard(card: ReportCard): string {
  const nothing = nothingToRate(card);
  if (nothing) return `report card: ${nothing}`;
  const sections = cardLines(card);
  const width = Math.max(...sections.map((s) => s.label.length));
  const out = ['report card:'];
  for (const { label, lines } of sections)
    lines.forEach((line, i) => out.push(`  ${(i === 0 ? label : '').padEnd(width)}  ${line}`));
  return out.join('\n');
}

/** The card as a Markdown section (a heading, then one bullet per line). */
export function formatReportCardMarkdown(card: ReportCard): string {
  const out = ['### Report card', ''];
  const nothing = nothingToRate(card);
  if (nothing) return [...out, nothing].join('\n');
  for (const { label, lines } of cardLines(card)) {
    if (lines.length === 1) out.push(`- **${label}**: ${oneLine(lines[0]!)}`);
    else out.push(`- **${label}**:`, ...lines.map((line) => `  - ${oneLine(line)}`));
  }
  return out.join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\r?\n/g, ' ');
}
