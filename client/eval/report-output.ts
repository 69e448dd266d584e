// The eval report for people: a table per arm, the paired comparisons with their intervals and disagreements, and
// the files written beside each other (report.json and resolved.svg).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { renderResolvedChart } from '../../domain/eval/chart.js';
import type { EvalReport } from '../../domain/eval/report.js';
import { formatTable } from '../output/table.js';

const pct = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

export function formatEvalReport(report: EvalReport): string {
  const arms = formatTable(
    [
      'arm',
      'resolved',
      'pass@1',
      'after retries',
      'well-formed',
      'calls',
      'tokens',
      'cost',
      'time/inst',
      'tests/inst',
      'set-up',
      'unresolved by class',
    ],
    report.arms.map((arm) => [
      `${arm.arm.id} ${arm.arm.label}`,
      `${arm.resolved}/${arm.instances} ${pct(arm.resolvedRate)}`,
      pct(arm.pass1Rate),
      pct(arm.passAfterRetriesRate),
      pct(arm.wellFormedRate),
      String(arm.modelCalls),
      String(arm.tokens),
      `$${arm.costUsd.toFixed(4)}`,
      seconds(arm.wallTimePerInstanceMs),
      seconds(arm.testTimePerInstanceMs),
      arm.setupMs === undefined ? '-' : seconds(arm.setupMs),
      Object.entries(arm.failureClasses)
        .map(([name, count]) => `${name} ${count}`)
        .join(', ') || '-',
    ]),
  );
  const shown = report.tests === 'shown' ? ', tests shown to the coder' : '';
  const lines = [`eval ${report.evalId} (suite ${report.suite}${shown})`, arms];
  if (report.comparisons.length > 0) {
    lines.push('', `paired on shared instances (bootstrap seed ${report.seed}):`);
    lines.push(
      formatTable(
        ['a vs b', 'shared', 'lead of a', '95% interval', 'a only', 'b only', 'sign test p', 'disagreeing instances'],
        report.comparisons.map((c) => [
          `${c.a} vs ${c.b}`,
          String(c.shared),
          c.difference.toFixed(3),
          `[${c.interval.low.toFixed(3)}, ${c.interval.high.toFixed(3)}]`,
          String(c.signTest.aOnly),
          String(c.signTest.bOnly),
          c.signTest.pValue.toFixed(4),
          c.disagreements.map((d) => `${d.instanceId} (${d.resolvedBy})`).join(', ') || '-',
        ]),
      ),
    );
  }
  return lines.join('\n');
}

/** Writes report.json and resolved.svg into `dir`; returns their paths. */
export async function writeEvalFiles(report: EvalReport, dir: string): Promise<{ json: string; svg: string }> {
  await mkdir(dir, { recursive: true });
  const json = path.join(dir, 'report.json');
  const svg = path.join(dir, 'resolved.svg');
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(
    svg,
    renderResolvedChart(`${report.suite}: resolved rate per arm and attempt`, report.arms, {
      maxAttempts: report.maxAttempts,
      comparisons: report.comparisons,
    }),
  );
  return { json, svg };
}
