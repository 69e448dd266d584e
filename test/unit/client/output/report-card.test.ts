import { describe, expect, it } from 'vitest';
import { buildReportCard } from '../../../../domain/learning/report-card.js';
import type { RunTask } from '../../../../domain/learning/finished-task.js';
import { formatReportCard, formatReportCardMarkdown, formatTrend } from '../../../../client/output/report-card.js';

const task = (taskId: string, status: RunTask['status'], extra: Partial<RunTask> = {}): RunTask => ({
  taskId,
  status,
  attempts: 1,
  durationMs: 1000,
  patterns: [],
  acceptedDiffTokens: 0,
  promptTokens: 10,
  ...extra,
});

// a passes at 1 with skill s1 (60 tokens of diff), b passes at 2 after a wrong_constant, c (4 contracts, the
// others 1) fails twice (wrong_constant, unknown), which makes a correlation lesson.
const tasks = [
  task('a', 'COMPLETED', { passedAtAttempt: 1, acceptedDiffTokens: 60, usedSkills: ['s1'], contractCount: 1 }),
  task('b', 'COMPLETED', {
    attempts: 2,
    passedAtAttempt: 2,
    patterns: ['wrong_constant'],
    acceptedDiffTokens: 30,
    contractCount: 1,
  }),
  task('c', 'FAILED', { attempts: 2, patterns: ['wrong_constant', 'unknown'], contractCount: 4 }),
];

describe('report card formatting', () => {
  it('prints grade, rates, patterns, novel tasks, trends with arrows, actions, skills and lessons', () => {
    const card = buildReportCard(tasks, { fidelity: 0.9, passRateAt1: 0.3, compression: 3 });
    const text = formatReportCard(card);
    // fidelity 2/3, one of three at attempt 1, one novel pattern: grade B needs fidelity 0.75, so C.
    expect(text).toContain('grade      C (fidelity 67%, pass at attempt 1 33%, novel patterns 1)');
    expect(text).toContain('pass rate  at attempt 1 33%, by attempt 2 67%, of verdicts 67%');
    expect(text).toContain('patterns   wrong_constant 2 (67%)');
    expect(text).toMatch(/\n {13}unknown 1 \(33%\)/);
    expect(text).toContain('novel      1 in c');
    expect(text).toContain('trends     fidelity ↓ DOWN -23% (was 90%)');
    expect(text).toContain('pass@1 → STABLE +3% (was 30%)');
    expect(text).toContain('compression → STABLE +0.00 (was 3.00)');
    expect(text).toContain('actions    wrong_constant: Quote the expected literal values');
    expect(text).toContain('skills     with 1 task, pass 100%; without 2 tasks, pass 50%');
    expect(card.lessons).toHaveLength(1);
    expect(text).toContain(
      `lessons    ${card.lessons[0]!.id} Failed tasks had 4.0x more contracts on average (4.0 vs 1.0)`,
    );
  });

  it('says when there is no previous run and when nothing failed', () => {
    const text = formatReportCard(buildReportCard([task('a', 'COMPLETED', { passedAtAttempt: 1 })]));
    expect(text).toContain('fidelity → (no previous run)');
    expect(text).toContain('patterns   none');
    expect(text).toContain('actions    none');
  });

  it('rates nothing when no task reached a verdict: no grade, no rates of zero tasks', () => {
    expect(formatReportCard(buildReportCard([]))).toBe('report card: nothing to rate: the run has no tasks');
    const skipped = buildReportCard([task('a', 'SKIPPED'), task('b', 'CANCELLED')]);
    expect(formatReportCard(skipped)).toBe(
      'report card: nothing to rate: none of its 2 tasks reached a verdict (skipped or cancelled)',
    );
    expect(formatReportCardMarkdown(buildReportCard([]))).toBe(
      '### Report card\n\nnothing to rate: the run has no tasks',
    );
  });

  it('shows an upward trend with its arrow and signed change', () => {
    expect(formatTrend({ direction: 'UP', delta: 0.5, previous: 0.5 }, true)).toBe('↑ UP +50% (was 50%)');
    expect(formatTrend({ direction: 'DOWN', delta: -1.25, previous: 4 }, false)).toBe('↓ DOWN -1.25 (was 4.00)');
  });

  it('writes a Markdown section with one bullet per metric and nested bullets for lists', () => {
    const markdown = formatReportCardMarkdown(buildReportCard(tasks));
    expect(markdown.startsWith('### Report card\n\n- **grade**: C (fidelity 67%')).toBe(true);
    expect(markdown).toContain('- **patterns**:\n  - wrong_constant 2 (67%)\n  - unknown 1 (33%)');
    expect(markdown).toContain('- **novel**: 1 in c');
  });
});
