import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writePredictions } from '../../../../client/eval/predictions.js';
import { resolveInstances } from '../../../../client/eval/resolve-instances.js';
import { readSweBenchSuite } from '../../../../client/eval/swe-bench-suite.js';
import type { ArmResult } from '../../../../domain/eval/records.js';
import type { Verification } from '../../../../domain/eval/resolve.js';

// A real upstream repository in a temp folder: a bug, then its fix with a regression test. The SWE-bench row is made
// the way the dataset makes it (patch: the fix's non-test diff, test_patch: its test diff, against base_commit).
let dir: string;
let upstream: string;
const git = async (cwd: string, ...args: string[]) =>
  (
    await execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd,
      stripFinalNewline: false,
    })
  ).stdout;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-swe-'));
  upstream = path.join(dir, 'upstream');
  await mkdir(path.join(upstream, 'tests'), { recursive: true });
  await writeFile(
    path.join(upstream, 'calc.py'),
    'def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n',
  );
  await writeFile(
    path.join(upstream, 'tests', 'test_calc.py'),
    'from calc import sub\n\n\ndef test_sub():\n    assert sub(3, 1) == 2\n',
  );
  await git(upstream, 'init', '-q', '-b', 'main');
  await git(upstream, 'add', '-A');
  await git(upstream, 'commit', '-qm', 'base');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function rowFile(): Promise<{ file: string; base: string; testPatch: string }> {
  const base = (await git(upstream, 'rev-parse', 'HEAD')).trim();
  await writeFile(
    path.join(upstream, 'calc.py'),
    'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n',
  );
  await writeFile(
    path.join(upstream, 'tests', 'test_calc.py'),
    'from calc import add, sub\n\n\ndef test_sub():\n    assert sub(3, 1) == 2\n\n\ndef test_add():\n    assert add(1, 2) == 3\n',
  );
  const patch = await git(upstream, 'diff', base, '--', 'calc.py');
  const testPatch = await git(upstream, 'diff', base, '--', 'tests');
  await git(upstream, 'checkout', '-q', '--', '.');
  const row = {
    repo: 'example/calc',
    instance_id: 'example__calc-1',
    base_commit: base,
    patch,
    test_patch: testPatch,
    problem_statement: 'add(1, 2) returns -1; it must return 3.',
    FAIL_TO_PASS: JSON.stringify(['tests/test_calc.py::test_add']),
    PASS_TO_PASS: JSON.stringify(['tests/test_calc.py::test_sub']),
    version: '1.0',
    mirror: upstream,
  };
  const file = path.join(dir, 'tiny-swe.jsonl');
  await writeFile(file, `${JSON.stringify(row)}\n`);
  return { file, base, testPatch };
}

describe('SWE-bench JSONL in, predictions out', () => {
  it('makes a suite whose fix is the gold patch, and a prediction that git apply applies at base_commit', async () => {
    const { file, base, testPatch } = await rowFile();
    const cacheDir = path.join(dir, 'cache');
    const { suite } = await readSweBenchSuite(file, { cacheDir });
    expect(suite.name).toBe('tiny-swe');
    const [instance] = await resolveInstances(suite, {
      suiteDir: dir,
      cacheDir,
      scriptsDir: path.join(dir, 'scripts'),
    });
    if (!instance) throw new Error('no instance');
    // The base is base_commit; the test patch's files are laid over for verification; the oracle writes the fix.
    expect(instance).toMatchObject({
      id: 'example__calc-1',
      baseSha: base,
      failToPass: ['tests/test_calc.py::test_add'],
      passToPass: ['tests/test_calc.py::test_sub'],
      overlay: { paths: ['tests/test_calc.py'] },
    });
    const oracle = JSON.parse(await readFile(instance.oracle ?? '', 'utf8')) as { coder: unknown[] };
    expect(JSON.stringify(oracle.coder[0])).toContain('return a + b');

    // What a task commits: the oracle's change, as a commit on a branch of the eval's clone.
    const work = path.join(dir, 'work');
    await git(dir, 'clone', '-q', instance.repo, work);
    await git(work, 'checkout', '-q', base);
    await writeFile(
      path.join(work, 'calc.py'),
      'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n',
    );
    await git(work, 'commit', '-qam', 'taskloop: fix add');
    await git(work, 'push', '-q', instance.repo, 'HEAD:refs/heads/taskloop/example__calc-1');
    const sha = (await git(work, 'rev-parse', 'HEAD')).trim();

    const verification = (checked: 'commit' | 'base', at: string): Verification => ({
      resolved: checked === 'commit',
      sha: at,
      checked,
      failToPass: { total: 1, passed: 1, notPassing: {} },
      passToPass: { total: 1, passed: 1, notPassing: {} },
    });
    const result = (id: string, checked: 'commit' | 'base', at: string): ArmResult => ({
      evalId: 'e',
      suite: 'tiny-swe',
      arm: { id, label: 'x', model: 'openai:qwen', agent: 'coder-small', learning: false },
      runs: [
        {
          instanceId: 'example__calc-1',
          workflowId: 'w',
          taskStatus: 'COMPLETED',
          attempts: 1,
          verification: verification(checked, at),
          modelCalls: 1,
          inputTokens: 0,
          outputTokens: 0,
          costUsd: 0,
          wallTimeMs: 0,
          malformedReplies: 0,
        },
      ],
      total: 1,
      finished: true,
    });
    const out = path.join(dir, 'out');
    const files = await writePredictions(
      [result('a1', 'commit', sha), result('a2', 'base', base)],
      [instance],
      out,
      'coder-1',
    );
    expect(files).toEqual([path.join(out, 'predictions-a1.jsonl'), path.join(out, 'predictions-a2.jsonl')]);
    const [prediction] = (await readFile(files[0] ?? '', 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(Object.keys(prediction ?? {})).toEqual(['instance_id', 'model_name_or_path', 'model_patch']);
    expect(prediction?.model_name_or_path).toBe('taskloop__coder-small__openai:qwen__learning-off');
    expect(await readFile(files[1] ?? '', 'utf8')).toContain('"model_patch":""');

    // An arm that pins no version is named after the one that ran: the version its runs recorded, else the champion
    // as the eval was planned; two evals with different champions file their predictions under different names.
    const unpinned = (agent?: string): ArmResult => {
      const whole = result('a3', 'commit', sha);
      return {
        ...whole,
        arm: { ...whole.arm, agent: undefined },
        runs: whole.runs.map((run) => ({ ...run, ...(agent ? { agent } : {}) })),
      };
    };
    const nameWritten = async (arm: ArmResult, champion: string) => {
      const [file] = await writePredictions([arm], [instance], path.join(dir, `out-${champion}`), champion);
      return (JSON.parse(await readFile(file ?? '', 'utf8')) as Record<string, string>).model_name_or_path;
    };
    expect(await nameWritten(unpinned(), 'coder-1')).toBe('taskloop__coder-1__openai:qwen__learning-off');
    expect(await nameWritten(unpinned(), 'coder-2')).toBe('taskloop__coder-2__openai:qwen__learning-off');
    expect(await nameWritten(unpinned('coder/coder-3'), 'coder-2')).toBe(
      'taskloop__coder-3__openai:qwen__learning-off',
    );

    // As the harness does it: a fresh checkout of the upstream repository at base_commit, git apply the prediction,
    // then the test patch, and the FAIL_TO_PASS and PASS_TO_PASS tests pass.
    const harness = path.join(dir, 'harness');
    await git(dir, 'clone', '-q', upstream, harness);
    await git(harness, 'checkout', '-q', base);
    await writeFile(path.join(dir, 'model.patch'), prediction?.model_patch ?? '');
    await writeFile(path.join(dir, 'test.patch'), testPatch);
    await git(harness, 'apply', '--check', path.join(dir, 'model.patch'));
    await git(harness, 'apply', path.join(dir, 'model.patch'));
    await git(harness, 'apply', path.join(dir, 'test.patch'));
    const pytest = await execa('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests/test_calc.py'], {
      cwd: harness,
      reject: false,
    });
    expect(pytest.stdout).toContain('2 passed');
  });

  it('names the line and the field when a patch does not apply to base_commit', async () => {
    const { file } = await rowFile();
    const row = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
    row.patch = (row.patch ?? '').replace('return a - b', 'return a * b');
    await writeFile(file, `\n${JSON.stringify(row)}\n`);
    await expect(readSweBenchSuite(file, { cacheDir: path.join(dir, 'cache') })).rejects.toThrow(
      /tiny-swe\.jsonl: line 2: patch: does not apply to base_commit [0-9a-f]{12} \(.*\); fix: copy patch whole from the dataset/,
    );
  });
});
