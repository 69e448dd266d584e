// `npx tsx bench/landing.ts`: what a landing costs (the merge in the object store, the task's tests on the merged
// tree in the sandbox, the compare-and-swap) beside the task's own test run, and a queue of 20 changes from one base
// to one branch, 4 of them conflicting: time to land all, changes sent back, changes lost (must be 0). The landing
// steps run as the lander's activities run them, in order, without the Temporal server (its cost per workflow step
// is the overhead figure of docs/benchmarks.md). Nothing here asserts timings.
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { landChange } from '../activities/land/land-change.js';
import { withTreeFiles } from '../activities/land/materialize-tree.js';
import { mergeChange } from '../activities/land/merge-change.js';
import { resolveWorkerSandbox, sandboxPolicyFor } from '../activities/sandbox/index.js';
import { runTests } from '../activities/tests/index.js';
import { makeRepo, makeTempDir, writeFiles } from '../test/support/git-repo.js';

const CHANGES = 20;
const CONFLICTING = new Set([5, 10, 15, 19]);
const git = (repo: string, ...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();

async function main(): Promise<void> {
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
  await withTreeFiles(path.join(repo, '.git'), git(repo, 'rev-parse', `${shas[1]}^{tree}`), test);
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
    const run = await withTreeFiles(path.join(repo, '.git'), found.tree, test);
    tests.push(performance.now() - t);
    if (run.outcome !== 'passed')
      throw new Error(`tests failed on the merged tree of change ${i}: ${run.reason ?? ''}`);
    t = performance.now();
    const result = await landChange({ ...input, merged: found.merged, expectedHead: found.targetHead });
    lands.push(performance.now() - t);
    if (result.kind === 'landed') landed.push(sha);
  }
  const totalMs = performance.now() - start;
  const report = summarize(repo, shas, { ownMs, merges, tests, lands, sentBack, landed: landed.length, totalMs });
  await Promise.all([repo, workDir].map((dir) => rm(dir, { recursive: true, force: true })));
  console.log(report);
}

interface Measured {
  ownMs: number;
  merges: number[];
  tests: number[];
  lands: number[];
  sentBack: number;
  landed: number;
  totalMs: number;
}

function summarize(repo: string, shas: string[], measured: Measured): string {
  const { ownMs, merges, tests, lands, sentBack, totalMs } = measured;
  const onMain = git(repo, 'log', '--format=%H', 'main').split('\n');
  const lost = shas.filter((sha, i) => !CONFLICTING.has(i) && !onMain.includes(sha)).length;
  const twice = onMain.length - new Set(onMain).size;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const ms = (value: number) => `${Math.round(value)} ms`;
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');
  return [
    `load average (1/5/15 min): ${load} on ${os.cpus().length} cores`,
    `task's own test run (pytest, ${CHANGES} tests, in the sandbox, the first run): ${ms(ownMs)}`,
    `landing per change, median: merge ${ms(median(merges))}, tests on the merged tree ${ms(median(tests))}, compare-and-swap ${ms(median(lands))}`,
    `queue of ${CHANGES} changes from one base to main (${CONFLICTING.size} conflicting): ${(totalMs / 1000).toFixed(1)} s to land all; ${measured.landed} landed, ${sentBack} sent back, ${lost} lost, ${twice} landed twice`,
  ].join('\n');
}

await main();
