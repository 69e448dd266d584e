// Reports of one suite's instances run in parts, joined per arm label and paired as one eval (domain/eval/join-reports.ts).
import { describe, expect, it } from 'vitest';
import { joinReports } from '../../../../domain/eval/join-reports.js';
import type { ArmResult, InstanceRun } from '../../../../domain/eval/records.js';
import { buildEvalReport } from '../../../../domain/eval/report.js';
import { run } from './instance-run.js';

const arm = (evalId: string, id: string, label: string, runs: InstanceRun[]): ArmResult => ({
  ...{ evalId, suite: 'part', arm: { id, label, model: 'local:m', learning: label.includes('learning=on') } },
  ...{ runs, total: runs.length, finished: true },
});
const loop = 'local:m coder-small-text learning=on samples=3';
const peer = 'mini-swe-agent (text)';
const partA = buildEvalReport([
  arm('ea', 'a1', loop, [run('x1', true, 1), run('x2', false)]),
  arm('ea', 'a2', 'local:m coder-small-text learning=off samples=3', [run('x1', true, 1), run('x2', false)]),
]);
const partB = buildEvalReport([arm('eb', 'a1', loop, [run('x3', false)])]);
const peerA = buildEvalReport([arm('pa', 'peer', peer, [run('x1', false), run('x2', false)])]);
const peerB = buildEvalReport([arm('pb', 'peer', peer, [run('x3', false)])]);

describe('joinReports', () => {
  it("joins each label's runs across reports, in the order labels first appear, leaving out what is asked", () => {
    const arms = joinReports([partA, peerA, partB, peerB], (label) => label.includes('learning=off'));
    expect(arms.map((joined) => [joined.arm.label, joined.runs.map((r) => r.instanceId), joined.total])).toEqual([
      [loop, ['x1', 'x2', 'x3'], 3],
      [peer, ['x1', 'x2', 'x3'], 3],
    ]);
    const [comparison] = buildEvalReport(arms).comparisons;
    expect(comparison).toMatchObject({
      ...{ a: 'a1', b: 'peer', shared: 3, signTest: { aOnly: 1, bOnly: 0 } },
      disagreements: [{ instanceId: 'x1', resolvedBy: 'a1' }],
    });
    expect(comparison?.difference).toBeCloseTo(1 / 3);
  });

  it('keeps every arm when nothing is left out', () => {
    expect(joinReports([partA, partB]).map((joined) => joined.runs.length)).toEqual([3, 2]);
  });

  it('refuses an instance found twice under one label, naming it, the arm and both evals', () => {
    expect(() => joinReports([partA, partA])).toThrow(
      `instance x1 is in two reports under the arm '${loop}' (ea and ea): leave one of them out`,
    );
  });
});
