import { describe, expect, it } from 'vitest';
import { renderResolvedChart } from '../../../../domain/eval/chart.js';
import type { ArmSummary, Comparison } from '../../../../domain/eval/report.js';

const summary = (id: string, label: string, resolvedByAttempt: number[]): ArmSummary => ({
  arm: { id, label, model: 'scripted:x', learning: true },
  instances: 6,
  resolved: 3,
  resolvedRate: resolvedByAttempt.at(-1) ?? 0,
  pass1Rate: resolvedByAttempt[0] ?? 0,
  passAfterRetriesRate: resolvedByAttempt.at(-1) ?? 0,
  resolvedByAttempt,
  wellFormedRate: 1,
  modelCalls: 10,
  tokens: 100,
  costUsd: 0,
  wallTimePerInstanceMs: 1000,
  testTimePerInstanceMs: 500,
  failureClasses: {},
});

const arms = [
  summary('a1', 'openai:qwen2.5-coder-1.5b-instruct learning=on', [0.25, 0.5, 0.5]),
  summary('a2', 'openai:qwen2.5-coder-1.5b-instruct learning=off', [0.25, 0.25, 0.25]),
];
const comparison: Comparison = {
  a: 'a1',
  b: 'a2',
  shared: 6,
  difference: 0.25,
  interval: { low: -0.1, high: 0.6, level: 0.95 },
  signTest: { aOnly: 2, bOnly: 0, pValue: 0.5 },
  disagreements: [],
};

/** The x and text of every arm label (the 10 px text on the line under the arm ids, 30 px below the plot). */
const labels = (svg: string) =>
  [...svg.matchAll(/<text x="([\d.]+)" y="290" text-anchor="middle" font-size="10">([^<]+)<\/text>/g)].map(
    ([, x, text]) => ({ x: Number(x), text: text as string }),
  );

describe('the eval picture', () => {
  it('draws only as many attempt bars as the suite allowed', () => {
    const svg = renderResolvedChart('tiny', arms, { maxAttempts: 2 });
    expect(svg.match(/by attempt \d: /g)).toEqual([
      'by attempt 1: ',
      'by attempt 2: ',
      'by attempt 1: ',
      'by attempt 2: ',
    ]);
    expect(svg).not.toContain('by attempt 3');
  });

  it("draws each comparison's difference and interval, with the figures in words", () => {
    const svg = renderResolvedChart('tiny', arms, { maxAttempts: 2, comparisons: [comparison] });
    expect(svg).toContain('difference in resolved rate, with its 95% interval');
    expect(svg).toContain('a1 − a2: +25% (−10% to +60%, 6 shared)');
    expect(svg.match(/<circle /g)).toHaveLength(1);
  });

  it("keeps two arms' labels apart however long they are", () => {
    const found = labels(renderResolvedChart('tiny', arms, { maxAttempts: 2 }));
    expect(found).toHaveLength(2);
    const [first, second] = found;
    // Centred texts: they overlap unless the centres are at least half of each width apart (6 px a character).
    const needed = ((first?.text.length ?? 0) + (second?.text.length ?? 0)) * 3;
    expect((second?.x ?? 0) - (first?.x ?? 0)).toBeGreaterThanOrEqual(needed);
  });
});
