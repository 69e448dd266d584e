// The failure corpus: real projects broken in labelled ways (test/corpus), their recorded test runs classified
// by decideTestRun (the test activity's own decision), and compared with the labels written before any run.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { topPattern } from '../../../domain/learning/patterns/index.js';
import { decideTestRun, type TestRunFacts } from '../../../domain/test-run-outcome.js';
import { classifyCause } from '../../../domain/failure-causes.js';

interface Label {
  id: string;
  project: string;
  breakage: string;
  expectedPattern: string;
  expectedCause: string;
  expectedClass: string;
}

interface Fixture {
  id: string;
  command: string[];
  ownModules: string[];
  timeoutMs: number;
  exitCode: number | null;
  timedOut: boolean;
  commandNotFound: boolean;
  outputTooLarge: boolean;
  counts: { passed: number; failed: number; errors: number; skipped: number };
  stdoutTail: string;
  stderrTail: string;
}

const corpus = path.resolve('test/corpus');
const labels = JSON.parse(readFileSync(path.join(corpus, 'labels.json'), 'utf8')) as Label[];
const fixtures = new Map(
  readdirSync(path.join(corpus, 'fixtures')).map((name) => {
    const fixture = JSON.parse(readFileSync(path.join(corpus, 'fixtures', name), 'utf8')) as Fixture;
    return [fixture.id, fixture] as const;
  }),
);

/** What taskloop's test node derives from a recorded run (the function the test activity calls). */
function classify(fixture: Fixture) {
  const facts: TestRunFacts = {
    exitCode: fixture.exitCode,
    timedOut: fixture.timedOut,
    timeoutMs: fixture.timeoutMs,
    commandNotFound: fixture.commandNotFound,
    program: fixture.command[0],
    outputTooLarge: fixture.outputTooLarge,
    stdout: fixture.stdoutTail,
    stderr: fixture.stderrTail,
    counts: fixture.counts,
    ownModules: fixture.ownModules,
  };
  const { cause, patterns } = decideTestRun(facts);
  return {
    pattern: topPattern(patterns ?? [])?.type ?? 'none',
    cause: cause?.kind ?? 'none',
    klass: cause === undefined ? 'none' : classifyCause(cause, 'test').failureClass,
    message: cause?.message ?? '',
  };
}

const minimumAgreement = 0.95;

describe('failure corpus of real projects', () => {
  const results = labels.map((label) => {
    const fixture = fixtures.get(label.id);
    if (fixture === undefined)
      throw new Error(`no fixture for label ${label.id}: run npx tsx scripts/corpus/record.ts ${label.id}`);
    return { label, got: classify(fixture) };
  });

  it('covers at least two projects with at least 15 breakages each', () => {
    const perProject = new Map<string, number>();
    for (const label of labels) perProject.set(label.project, (perProject.get(label.project) ?? 0) + 1);
    expect(perProject.size).toBeGreaterThanOrEqual(2);
    for (const count of perProject.values()) expect(count).toBeGreaterThanOrEqual(15);
  });

  // A breakage the project's own suite does not catch (its run passes) is no failure sample: it is reported and
  // counted apart, and the raw figures over all labels are printed beside the figures over the caught ones.
  const caught = results.filter((r) => r.got.cause !== 'none');
  const uncaught = results.filter((r) => r.got.cause === 'none');

  it('has a failing run for nearly every breakage', () => {
    expect(caught.length / results.length, uncaught.map((r) => r.label.id).join(', ')).toBeGreaterThanOrEqual(
      minimumAgreement,
    );
  });

  it(`agrees with the labels on the top pattern and on the class at least ${minimumAgreement * 100}% of the time`, () => {
    const figure = (rows: typeof results, key: 'pattern' | 'klass') => {
      const expected = (r: (typeof results)[number]) =>
        key === 'pattern' ? r.label.expectedPattern : r.label.expectedClass;
      const agreeing = rows.filter((r) => r.got[key] === expected(r)).length;
      return {
        share: agreeing / rows.length,
        text: `${agreeing}/${rows.length} (${((agreeing / rows.length) * 100).toFixed(1)}%)`,
      };
    };
    const misses = (key: 'pattern' | 'klass' | 'cause') =>
      caught.filter(
        (r) =>
          r.got[key] !==
          { pattern: r.label.expectedPattern, klass: r.label.expectedClass, cause: r.label.expectedCause }[key],
      );
    const report = [
      `caught breakages: top pattern ${figure(caught, 'pattern').text}, class ${figure(caught, 'klass').text}`,
      `all labels (uncaught count as misses): top pattern ${figure(results, 'pattern').text}, class ${figure(results, 'klass').text}`,
      ...uncaught.map((r) => `not caught by the project's tests (run passed): ${r.label.id}`),
      ...misses('pattern').map(
        (r) => `pattern ${r.label.id}: expected ${r.label.expectedPattern}, got ${r.got.pattern}`,
      ),
      ...misses('klass').map(
        (r) => `class ${r.label.id}: expected ${r.label.expectedClass}, got ${r.got.klass} (${r.got.message})`,
      ),
      ...misses('cause').map(
        (r) => `cause ${r.label.id}: expected ${r.label.expectedCause}, got ${r.got.cause} (${r.got.message})`,
      ),
    ].join('\n');
    console.log(report);
    expect(figure(caught, 'pattern').share, report).toBeGreaterThanOrEqual(minimumAgreement);
    expect(figure(caught, 'klass').share, report).toBeGreaterThanOrEqual(minimumAgreement);
  });
});
