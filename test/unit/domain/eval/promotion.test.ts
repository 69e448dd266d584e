import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAgentRegistry } from '../../../../domain/agents.js';
import { renderResolvedChart } from '../../../../domain/eval/chart.js';
import { decidePromotion } from '../../../../domain/eval/promotion.js';
import type { ArmResult } from '../../../../domain/eval/records.js';
import { editRegistryText, promotionRecord } from '../../../../domain/eval/registry-edit.js';
import { buildEvalReport } from '../../../../domain/eval/report.js';
import { projectRoot } from '../../../../platform/paths.js';
import { run } from './instance-run.js';

const arm = (id: string, agent: string | undefined, resolved: boolean[]): ArmResult => ({
  evalId: 'e1',
  suite: 'tiny',
  arm: { id, label: `m ${agent ?? 'champion'}`, model: 'scripted:x', learning: true, ...(agent ? { agent } : {}) },
  runs: resolved.map((ok, i) => run(`i${i}`, ok, ok ? (i % 2) + 1 : undefined)),
  total: resolved.length,
  finished: true,
});

const all = (n: number, value: boolean) => Array.from({ length: n }, () => value);

describe('the eval report', () => {
  it('sums each arm and compares the arms on shared instances, naming the disagreements', () => {
    const report = buildEvalReport([
      arm('a1', 'coder-1', [true, true, false]),
      arm('a2', 'coder-2', [true, false, false]),
    ]);
    expect(report.arms[0]).toMatchObject({
      instances: 3,
      resolved: 2,
      pass1Rate: 1 / 3,
      resolvedByAttempt: [1 / 3, 2 / 3, 2 / 3],
      modelCalls: 12,
      tokens: 330,
      failureClasses: { code_defect: 1 },
    });
    expect(report.arms[0]?.wellFormedRate).toBeCloseTo(1 - 1 / 12);
    expect(report.comparisons).toEqual([
      expect.objectContaining({
        a: 'a1',
        b: 'a2',
        shared: 3,
        difference: 1 / 3,
        signTest: { aOnly: 1, bOnly: 0, pValue: 1 },
        disagreements: [{ instanceId: 'i1', resolvedBy: 'a1' }],
      }),
    ]);
    expect(renderResolvedChart('tiny', report.arms)).toMatch(/^<svg[\s\S]*a1 by attempt 2: 66.7%[\s\S]*<\/svg>\n$/);
  });
});

describe('decidePromotion', () => {
  it('promotes a challenger whose lead over the champion has an interval above 0', () => {
    const decision = decidePromotion(
      [arm('a1', undefined, all(12, false)), arm('a2', 'coder-2', all(12, true))],
      'coder-1',
    );
    expect(decision).toMatchObject({
      promote: true,
      champion: 'coder-1',
      candidate: 'coder-2',
      shared: 12,
      difference: 1,
    });
    expect(decision.reason).toMatch(/excludes 0: coder-2 is champion$/);
  });

  it('keeps the champion when the interval includes 0, or no arm ran it, and says why', () => {
    const close = decidePromotion(
      [arm('a1', 'coder-1', [true, false, true]), arm('a2', 'coder-2', [false, true, true])],
      'coder-1',
    );
    expect(close.promote).toBe(false);
    expect(close.reason).toMatch(/does not exclude 0: kept coder-1$/);
    const alone = decidePromotion([arm('a1', 'coder-2', [true])], 'coder-1');
    expect(alone).toMatchObject({ promote: false, reason: expect.stringMatching(/no arm ran the champion coder-1/) });
  });
});

describe('editRegistryText', () => {
  const text = readFileSync(path.join(projectRoot, 'agents', 'registry.json'), 'utf8');
  const record = promotionRecord(
    { promote: true, champion: 'coder-1', candidate: 'coder-1-no-tests', reason: 'lead', shared: 3, difference: 1 },
    { at: '2026-12-05T00:00:00.000Z', evalId: 'e1', suite: 'tiny' },
  );

  it('changes only the champion line and adds one history entry, leaving a valid registry', () => {
    const edited = editRegistryText(text, record, 'coder-1-no-tests');
    const registry = JSON.parse(edited) as { coder: { champion: string; history: unknown[] } };
    expect(registry.coder.champion).toBe('coder-1-no-tests');
    expect(registry.coder.history).toEqual([record]);
    expect(parseAgentRegistry(registry).success).toBe(true);
    const removed = text.split('\n').filter((line) => !edited.split('\n').includes(line));
    expect(removed).toEqual(['    "champion": "coder-1",']);

    const again = editRegistryText(edited, { ...record, decision: 'kept' });
    expect((JSON.parse(again) as typeof registry).coder.history).toHaveLength(2);
    expect((JSON.parse(again) as typeof registry).coder.champion).toBe('coder-1-no-tests');
  });
});
