// bench/landing (`npx tsx bench/index.ts --only landing`): what a landing costs (the merge in the object store, the task's tests on the merged
// tree in the sandbox, the compare-and-swap) beside the task's own test run, and a queue of 20 changes from one base
// to one branch, 4 of them conflicting: time to land all, changes sent back, changes lost (must be 0). The landing
// steps run as the lander's activities run them, in order, without the Temporal server (its cost per workflow step
// is the overhead figure of docs/benchmarks.md). Nothing here asserts timings.
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { landChange } from '../activities/land/land-change.js';
import { withTreeFiles } from '../activities/land/materialize-tree.js';
import { mergeChange } from '../activities/land/merge-change.js';
import { resolveWorkerSandbox, sandboxPolicyFor } from '../activities/sandbox/index.js';
import { runTests } from '../activities/tests/index.js';
import { makeRepo, makeTempDir, writeFiles } from '../test/support/git-repo.js';
import { atMost, count, ms, reference, seconds } from './lib/figures.js';
import type { Benchmark, BenchResult, Figure } from './lib/types.js';

const CHANGES = 20;
const CONFLICTING = new Set([5, 10, 15, 19]);
const git = (repo: string, ...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();

export const landingBenchmark: Benchmark = {
  name: 'landing',
  defaultRuns: 1,
  async run({ runs, log }): Promise<BenchResult> {
    const figures: Figure[] = [];
    for (let run = 1; run <= runs; run += 1) {
      const measured = await measureQueue();
      log(
        `landing run ${run}/${runs}: ${measured.landed} landed, ${measured.sentBack} sent back in ${seconds(measured.totalMs)}`,
      );
      figures.push(...landingFigures(measured, runs > 1 ? ` (run ${run})` : ''));
    }
    return { figures, sections: [] };
  },
};

async function measureQueue(): Promise<Measured> {
  const files: Record<string, string> = { 'calc.py': 'def add(a, b):\n    return a + b\n', 'tests/__init__.py': '' };
  for (let i = 0; i < CHANGES; i += 1) files[`tests/test_m${i}.py`] = `def test_m${i}():\n    assert True\n`;
  const repo = await makeRepo(files);
  const workDir = await makeTempDir();
  const base = git(repo, 'rev-parse', 'main');
  git(repo, 'checkout', '-q', '--detach');
  const shas: string[] = [];
  for (let i = 0; i < CHANGES; i += 1) {
    git(repo, 'checkout', '-q', '-b', `taskloop/c${i}`, base);
    // Change 0 and every conflicting one rewrite the same line of calc.py; the others add a module of their own.
    if (i === 0 || CONFLICTING.has(i))
      await writeFiles(repo, { 'calc.py': `def add(a, b):\n    return b + a  # ${i}\n` });
    else await writeFiles(repo, { [`m${i}.py`]: `VALUE = ${i}\n` });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', `change ${i}`);
    shas.push(git(repo, 'rev-parse', 'HEAD'));
  }
  git(repo, 'checkout', '-q', '--detach', base);
  const sandbox = sandboxPolicyFor(resolveWorkerSandbox({ workDir }), undefined);
  const test = (folder: string) =>
    runTests({
      worktreePath: folder,
      command: ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
      testEnv: {},
      timeoutMs: 120_000,
      secretValues: [],
      artifactDir: path.join(workDir, 'artifacts'),
      hostId: 'bench',
      sandbox,
    });
  // The task's own test run: the same tests on the change's tree, as the test node runs them.
  const ownStart = performance.now();
  await withTreeFiles(
    path.join(workDir, 'landing'),
    path.join(repo, '.git'),
    git(repo, 'rev-parse', `${shas[1]}^{tree}`),
    test,
  );
  const ownMs = performance.now() - ownStart;

  const merges: number[] = [];
  const tests: number[] = [];
  const lands: number[] = [];
  let sentBack = 0;
  const landed: string[] = [];
  const start = performance.now();
  for (const [i, sha] of shas.entries()) {
    const input = { repo, workDir, target: 'main', sha, branch: `taskloop/c${i}`, date: '2026-12-07T21:00:00Z' };
    let t = performance.now();
    const found = await mergeChange(input);
    merges.push(performance.now() - t);
    if (found.kind !== 'merged') {
      sentBack += found.kind === 'conflict' ? 1 : 0;
      continue;
    }
    t = performance.now();
    const run = await withTreeFiles(path.join(workDir, 'landing'), path.join(repo, '.git'), found.tree, test);
    tests.push(performance.now() - t);
    if (run.outcome !== 'passed')
      throw new Error(`tests failed on the merged tree of change ${i}: ${run.reason ?? ''}`);
    t = performance.now();
    const result = await landChange({ ...input, merged: found.merged, expectedHead: found.targetHead });
    lands.push(performance.now() - t);
    if (result.kind === 'landed') landed.push(sha);
  }
  const totalMs = performance.now() - start;
  const onMain = git(repo, 'log', '--format=%H', 'main').split('\n');
  const lost = shas.filter((sha, i) => !CONFLICTING.has(i) && !onMain.includes(sha)).length;
  const twice = onMain.length - new Set(onMain).size;
  await Promise.all([repo, workDir].map((dir) => rm(dir, { recursive: true, force: true })));
  return { ownMs, merges, tests, lands, sentBack, landed: landed.length, lost, twice, totalMs };
}

interface Measured {
  ownMs: number;
  merges: number[];
  tests: number[];
  lands: number[];
  sentBack: number;
  landed: number;
  lost: number;
  twice: number;
  totalMs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The landing's cost per change beside the task's own test run, then the queue of 20's figures. */
function landingFigures(measured: Measured, suffix: string): Figure[] {
  const merge = median(measured.merges);
  const tests = median(measured.tests);
  const land = median(measured.lands);
  return [
    reference(
      `landing's cost per change (median: merge + tests on the merged tree + compare-and-swap) / the task's own test run (pytest, ${CHANGES} tests, sandbox)${suffix}`,
      `${ms(merge + tests + land)} / ${ms(measured.ownMs)}`,
    ),
    reference(
      `  of which merge / tests on the merged tree / compare-and-swap (main checked out and clean)`,
      `${ms(merge)} / ${ms(tests)} / ${ms(land)}`,
    ),
    reference(
      `queue of ${CHANGES} changes from one base to main (${CONFLICTING.size} conflicting): time to land all${suffix}`,
      seconds(measured.totalMs),
    ),
    reference(`  landed / sent back`, `${measured.landed} / ${measured.sentBack}`),
    atMost(`  changes lost (not on main, not sent back)`, measured.lost, 0, count),
    atMost(`  changes landed twice`, measured.twice, 0, count),
  ];
}
