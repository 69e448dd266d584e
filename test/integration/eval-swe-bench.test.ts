// `taskloop eval` on a SWE-bench-style JSONL file, end to end on the real dev server: the CLI as a person runs it, a
// worker in this process, a real repository and real pytest. The oracle (the gold patch) resolves the instance and its
// prediction applies with `git apply` at base_commit; the small-model coder version (scripted turns) starts from the
// evidence of a test run at the base and may only call its four tools.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { EvalReport } from '../../domain/eval/report.js';
import { runTaskloop } from '../support/cli.js';
import { makeTempDir } from '../support/git-repo.js';
import { startTestWorkers, uniqueId, type TestWorkerHost } from './support/temporal.js';

type JsonReport = EvalReport & { files: { json: string; svg: string; predictions?: string[] } };

const git = async (cwd: string, ...args: string[]) =>
  (
    await execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd,
      stripFinalNewline: false,
    })
  ).stdout;

/** An upstream repository with a bug, and one JSONL row made from its fix the way the dataset makes rows. */
/** `repo` names the eval's cached clone: each test's upstream is a repository of its own. */
async function makeRow(
  dir: string,
  id: string,
  repo = 'example/calc',
): Promise<{ file: string; upstream: string; base: string; testPatch: string }> {
  const upstream = path.join(dir, 'upstream');
  await mkdir(path.join(upstream, 'tests'), { recursive: true });
  const code = (op: string) => `def add(a, b):\n    return a ${op} b\n\n\ndef sub(a, b):\n    return a - b\n`;
  await writeFile(path.join(upstream, 'calc.py'), code('-'));
  await writeFile(
    path.join(upstream, 'tests', 'test_calc.py'),
    'from calc import sub\n\n\ndef test_sub():\n    assert sub(3, 1) == 2\n',
  );
  await git(upstream, 'init', '-q', '-b', 'main');
  await git(upstream, 'add', '-A');
  await git(upstream, 'commit', '-qm', 'base');
  const base = (await git(upstream, 'rev-parse', 'HEAD')).trim();
  await writeFile(path.join(upstream, 'calc.py'), code('+'));
  await writeFile(
    path.join(upstream, 'tests', 'test_calc.py'),
    'from calc import add, sub\n\n\ndef test_sub():\n    assert sub(3, 1) == 2\n\n\ndef test_add():\n    assert add(1, 2) == 3\n',
  );
  const patch = await git(upstream, 'diff', base, '--', 'calc.py');
  const testPatch = await git(upstream, 'diff', base, '--', 'tests');
  await git(upstream, 'checkout', '-q', '--', '.');
  const row = {
    repo,
    instance_id: id,
    base_commit: base,
    patch,
    test_patch: testPatch,
    problem_statement: 'calc.add(1, 2) returns -1; it must return 3.',
    FAIL_TO_PASS: JSON.stringify(['tests/test_calc.py::test_add']),
    PASS_TO_PASS: JSON.stringify(['tests/test_calc.py::test_sub']),
    mirror: upstream,
  };
  const file = path.join(dir, 'swe.jsonl');
  await writeFile(file, `${JSON.stringify(row)}\n`);
  return { file, upstream, base, testPatch };
}

describe('taskloop eval on SWE-bench JSONL', () => {
  let host: TestWorkerHost;
  let home: string;

  beforeAll(async () => {
    home = await makeTempDir();
    host = await startTestWorkers({ taskQueue: uniqueId('swe') });
  });

  afterAll(async () => {
    await host?.stop();
  });

  const evalCli = (args: string[]) =>
    runTaskloop(['eval', ...args, '--task-queue', host.taskQueue], {
      timeout: 240_000,
      env: { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress'), TASKLOOP_HOME: home },
    });

  it('resolves with the gold patch, writes predictions that git apply at base_commit, and runs coder-small from the evidence', async () => {
    const dir = await makeTempDir();
    const id = uniqueId('calc')
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .slice(0, 40);
    const { file, upstream, base, testPatch } = await makeRow(dir, id);
    // coder-small's turns: a tool it does not have (refused), then the fix with one of its own, then finish.
    const script = path.join(dir, 'small.json');
    await writeFile(
      script,
      JSON.stringify({
        coder: [
          { tool_calls: [{ name: 'write_file', arguments: { path: 'calc.py', content: 'x' } }] },
          {
            tool_calls: [
              {
                name: 'replace_in_file',
                arguments: { path: 'calc.py', old: 'return a - b\n\n\ndef sub', new: 'return a + b\n\n\ndef sub' },
              },
            ],
          },
          { tool_calls: [{ name: 'finish', arguments: { summary: 'add adds' } }] },
        ],
      }),
    );
    // The oracle's turns write whole files, a tool coder-small does not have: the oracle runs as the champion.
    const oracle = JSON.parse(
      (await evalCli([file, '--model', 'oracle', '--max-retries', '0', '--out', path.join(dir, 'oracle'), '--json']))
        .stdout,
    ) as JsonReport;
    expect(oracle.arms.map((arm) => [arm.arm.id, arm.resolved, arm.instances])).toEqual([['a1', 1, 1]]);
    const result = await evalCli([
      file,
      '--model',
      `scripted:${script}`,
      '--agents',
      'coder-small',
      '--max-retries',
      '0',
      '--out',
      path.join(dir, 'small'),
      '--json',
    ]);
    expect(result.exitCode, result.all).toBe(0);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.arms.map((arm) => [arm.arm.id, arm.resolved, arm.instances])).toEqual([['a1', 1, 1]]);
    expect(report.runs.a1?.[0]).toMatchObject({ agent: 'coder/coder-small', malformedReplies: 1 });
    const written = [...(oracle.files.predictions ?? []), ...(report.files.predictions ?? [])];
    expect(written).toEqual([
      path.join(dir, 'oracle', 'predictions-a1.jsonl'),
      path.join(dir, 'small', 'predictions-a1.jsonl'),
    ]);

    for (const [index, predictions] of written.entries()) {
      const [row] = (await readFile(predictions, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, string>);
      expect(row?.instance_id).toBe(id);
      // As the harness does it: a fresh checkout at base_commit, the prediction, then the test patch; the tests pass.
      const harness = path.join(dir, `harness-${index}`);
      await git(dir, 'clone', '-q', upstream, harness);
      await git(harness, 'checkout', '-q', base);
      await writeFile(path.join(dir, 'model.patch'), row?.model_patch ?? '');
      await writeFile(path.join(dir, 'test.patch'), testPatch);
      await git(harness, 'apply', path.join(dir, 'model.patch'));
      await git(harness, 'apply', path.join(dir, 'test.patch'));
      const pytest = await execa('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], {
        cwd: harness,
        reject: false,
      });
      expect(pytest.stdout).toContain('2 passed');
    }

    // coder-small's first request opened with the base run's evidence and the function the goal names; the
    // oracle's (the champion's) with the goal and the file list. Its call of write_file was refused at the tool.
    const artifacts = path.join(host.workDir, 'artifacts');
    const transcripts = (await readdir(artifacts, { recursive: true })).filter((entry) =>
      entry.endsWith('transcript.json'),
    );
    const firsts = await Promise.all(
      transcripts.map(async (entry) => {
        const messages = JSON.parse(await readFile(path.join(artifacts, entry), 'utf8')) as {
          role: string;
          content: string;
        }[];
        return { messages, first: messages.find((message) => message.role === 'user')?.content ?? '' };
      }),
    );
    const small = firsts.filter((run) => run.first.startsWith('# Test evidence'));
    expect(small).toHaveLength(1);
    expect(firsts.filter((run) => run.first.startsWith('# Goal'))).toHaveLength(1);
    expect(small[0]?.first).toContain('No test fails yet');
    expect(small[0]?.first).toContain('## calc.py lines 1-2: add (named by the goal)');
    expect(small[0]?.messages.some((m) => m.content.startsWith('error: write_file is not one of your tools.'))).toBe(
      true,
    );
  });

  it('with --tests shown the coder starts from the failing test, and the prediction holds no test file', async () => {
    const dir = await makeTempDir();
    const id = uniqueId('shown')
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .slice(0, 40);
    const { file, upstream } = await makeRow(dir, id, 'example/calc-shown');
    const script = path.join(dir, 'small.json');
    const fix = { path: 'calc.py', old: 'return a - b\n\n\ndef sub', new: 'return a + b\n\n\ndef sub' };
    const turns = [
      { name: 'replace_in_file', arguments: fix },
      { name: 'run_tests', arguments: {} },
      { name: 'finish', arguments: { summary: 'add adds' } },
    ];
    await writeFile(script, JSON.stringify({ coder: turns.map((call) => ({ tool_calls: [call] })) }));
    const result = await evalCli([
      ...[file, '--model', `scripted:${script}`, '--agents', 'coder-small', '--tests', 'shown'],
      ...['--max-retries', '0', '--out', path.join(dir, 'shown'), '--json'],
    ]);
    expect(result.exitCode, result.all).toBe(0);
    const report = JSON.parse(result.stdout) as JsonReport & { tests?: string };
    expect(report.tests).toBe('shown');
    expect(report.arms.map((arm) => [arm.arm.id, arm.resolved, arm.instances])).toEqual([['a1', 1, 1]]);
    const [row] = (await readFile(report.files.predictions?.[0] ?? '', 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(row?.model_patch).toContain('+    return a + b');
    expect(row?.model_patch).not.toContain('tests/');
    expect(await git(upstream, 'rev-parse', '--verify', '-q', `refs/taskloop/tests-shown/${id}`).catch(() => '')).toBe(
      '',
    );
    // The coder's first message: the fix's test failing at its base, and the goal naming it.
    const artifacts = path.join(host.workDir, 'artifacts');
    const transcripts = (await readdir(artifacts, { recursive: true })).filter(
      (entry) => entry.includes(id) && entry.endsWith('transcript.json'),
    );
    expect(transcripts).toHaveLength(1);
    const messages = JSON.parse(await readFile(path.join(artifacts, transcripts[0] ?? ''), 'utf8')) as {
      role: string;
      content: string;
    }[];
    const first = messages.find((message) => message.role === 'user')?.content ?? '';
    expect(first).toContain('Failing tests:\n- tests/test_calc.py::test_add');
    expect(first).toContain('E       assert -1 == 3');
    expect(first).toContain(
      'The tests that show the bug (they fail now and must pass after the fix): tests/test_calc.py::test_add.',
    );
  });
});
