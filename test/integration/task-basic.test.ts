import { execa } from 'execa';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { calcFiles, fixTurns, makeCalcProject, turn, wrongTurns } from '../support/calc-project.js';
import { useTestTemporal } from './support/temporal.js';
import { FailureClassKey } from '../../workflows/search-attributes.js';
import { git, readEvents, startTestTask, taskloopCommits, taskOutcome, taskSpec } from './support/tasks.js';
import { activitiesIn } from '../support/history-activities.js';

describe('the task workflow on a real server, real git and real pytest', () => {
  const t = useTestTemporal('task-basic');

  it('passes at attempt 1: one commit with the trailer on taskloop/<task>, tests pass there, worktree gone', async () => {
    const project = await makeCalcProject({ coder: fixTurns() });
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      models: { coder: `scripted:${project.scriptFile}` },
    });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    const outcome = await handle.result();

    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.attempts).toHaveLength(1);
    const branch = `taskloop/${spec.id}`;
    const commits = await taskloopCommits(project.repo, branch);
    expect(commits).toHaveLength(1);
    expect(commits[0]).toContain(`${handle.workflowId}/1`);
    expect(outcome.commit?.sha).toBe(commits[0]?.split(' ')[0]);

    const clone = `${project.dir}/clone`;
    await execa('git', ['clone', '-q', '--branch', branch, project.repo, clone]);
    const pytest = await execa('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
      cwd: clone,
      reject: false,
    });
    expect(pytest.exitCode).toBe(0);

    expect(
      (await git(project.repo, 'worktree', 'list', '--porcelain'))
        .split('\n')
        .filter((line) => line.startsWith('worktree ')),
    ).toEqual([`worktree ${project.repo}`]);

    expect(outcome.telemetry).toMatchObject({
      patch_attempts: 1,
      patch_successes: 1,
      patch_mismatch_count: 0,
      model_requests_per_task: 2,
      patch_success_rate: 1,
    });
    const events = (await readEvents(t.host.eventsFile))
      .filter((event) => event.workflowId === handle.workflowId)
      .map((event) => event.type);
    expect(events).toEqual(['COMMIT_CREATED', 'TASK_COMPLETED']);

    // Each node is one activity, the claim a local one of the workflow's worker (a marker, no task-queue hand-off), the
    // judge none (its rules run in the workflow; no judge model); the commit removes the worktree it committed. No
    // activity signals its own workflow.
    const history = (await handle.fetchHistory()).events ?? [];
    expect(activitiesIn(history).map(({ type, local }) => ({ type, local }))).toEqual([
      { type: 'claimWorktree', local: true },
      { type: 'runCoder', local: false },
      { type: 'runTests', local: false },
      { type: 'reviewChanges', local: false },
      { type: 'commitWorktree', local: false },
    ]);
    const signals = history.flatMap((event) => event.workflowExecutionSignaledEventAttributes?.signalName ?? []);
    expect(signals).toEqual([]);
    expect(outcome.attempts[0]?.test).toMatchObject({ outcome: 'passed', counts: { passed: 2 } });
    expect(outcome.attempts[0]?.review).toMatchObject({ passed: true, changedFiles: ['calc.py'] });
  });

  it("fails at attempt 1 with a code defect and passes at 2: attempt 2's coder saw the pytest failure, no FailureClass is left", async () => {
    const project = await makeCalcProject({ coder: [...wrongTurns(), ...fixTurns()] });
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      models: { coder: `scripted:${project.scriptFile}` },
    });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    const outcome = await handle.result();

    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.attempts.map((attempt) => attempt.status)).toEqual(['REWORK_REQUIRED', 'PASSED']);
    expect(outcome.attempts[0]?.failure).toMatchObject({
      node: 'test',
      failureClass: 'code_defect',
      cause: { kind: 'TestsFailed' },
    });
    expect((await handle.describe()).typedSearchAttributes.get(FailureClassKey)).toBeUndefined();
    expect(outcome.attempts[0]?.test?.stdoutExcerpt).toContain('assert 6 == 5');
    const transcript = JSON.parse(await readFile(outcome.attempts[1]?.coder?.transcript?.path ?? '', 'utf8')) as {
      role: string;
      content: string;
    }[];
    const firstUser = transcript.find((message) => message.role === 'user');
    expect(firstUser?.content).toContain('What attempt 1 did');
    expect(firstUser?.content).toContain('assert 6 == 5');
  });

  it('samples decided by tests: the second candidate, in its own worktree, fixes it; the first’s transcript is kept', async () => {
    const project = await makeCalcProject({ coder: [...wrongTurns(), ...fixTurns()] });
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      models: { coder: `scripted:${project.scriptFile}` },
      samples: 2,
      maxRetries: 0,
    });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    const outcome = await handle.result();

    expect(outcome.status).toBe('COMPLETED');
    const [attempt] = outcome.attempts;
    expect(outcome.attempts).toHaveLength(1);
    expect(attempt?.candidate).toBe(2);
    expect(attempt?.candidates?.[0]).toMatchObject({
      candidate: 1,
      failure: { node: 'test' },
      test: { outcome: 'failed' },
    });
    // Each candidate wrote its transcript in a folder of its own: the loser's is kept, not resumed nor overwritten.
    const loser = attempt?.candidates?.[0]?.coder?.transcript?.path ?? '';
    const winner = attempt?.coder?.transcript?.path ?? '';
    expect(path.basename(path.dirname(path.dirname(loser)))).toBe('a1');
    expect(path.basename(path.dirname(path.dirname(winner)))).toBe('a1c2');
    // The second candidate started from the base, told nothing of the first.
    const firstUser = (JSON.parse(await readFile(winner, 'utf8')) as { role: string; content: string }[]).find(
      (message) => message.role === 'user',
    );
    expect(firstUser?.content).not.toContain('What attempt 1 did');
    const commits = await taskloopCommits(project.repo, `taskloop/${spec.id}`);
    expect(commits).toHaveLength(1);
    expect(await git(project.repo, 'show', `taskloop/${spec.id}:calc.py`)).toContain('return a + b');
    // Both candidates' worktrees are gone.
    expect(
      (await git(project.repo, 'worktree', 'list', '--porcelain'))
        .split('\n')
        .filter((line) => line.startsWith('worktree ')),
    ).toEqual([`worktree ${project.repo}`]);
  });

  it('fails with retries exhausted: the workflow FAILED with TaskFailed, class recorded, TASK_RETRY_EXHAUSTED emitted, no commit', async () => {
    const project = await makeCalcProject({ coder: [...wrongTurns(), ...wrongTurns()] });
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      maxRetries: 1,
      models: { coder: `scripted:${project.scriptFile}` },
    });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    const outcome = await taskOutcome(handle);

    expect(outcome.status).toBe('FAILED');
    expect((await handle.describe()).status.name).toBe('FAILED');
    expect(outcome.attempts).toHaveLength(2);
    expect(outcome.recommendation).toBe('code_defect');
    expect(outcome.attempts.every((attempt) => attempt.failure?.failureClass === 'code_defect')).toBe(true);
    const events = (await readEvents(t.host.eventsFile)).filter((event) => event.workflowId === handle.workflowId);
    expect(events.map((event) => event.type)).toEqual([
      'TEST_FAILED',
      'TASK_FAILED',
      'TEST_FAILED',
      'TASK_FAILED',
      'TASK_RETRY_EXHAUSTED',
    ]);
    expect(events.filter((event) => event.type === 'TASK_FAILED').map((event) => event.data.will_retry)).toEqual([
      true,
      false,
    ]);
    // Branches are made only at commit: a failed task leaves none behind.
    expect(await git(project.repo, 'branch', '--list', 'taskloop/*')).toBe('');
  });

  it("retries after the review's path rules refuse an edit to a test file at the test node", async () => {
    const cheat = [
      turn('write_file', { path: 'tests/test_calc.py', content: 'def test_nothing():\n    assert True\n' }),
      turn('finish', { summary: 'simplified tests' }),
    ];
    const project = await makeCalcProject({ coder: [...cheat, ...fixTurns()] });
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      models: { coder: `scripted:${project.scriptFile}` },
    });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    const outcome = await handle.result();

    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.attempts[0]?.failure).toMatchObject({ node: 'test', failureClass: 'replan' });
    expect(outcome.attempts[0]?.failure?.cause).toMatchObject({ kind: 'ReviewFinding', rule: 'test_file_edited' });
    expect(outcome.attempts[0]?.test?.refused?.map((finding) => finding.rule)).toContain('test_file_edited');
    expect(outcome.attempts[0]?.review).toBeUndefined();
    const types = (await readEvents(t.host.eventsFile))
      .filter((event) => event.workflowId === handle.workflowId)
      .map((event) => event.type);
    expect(types).toEqual(['TEST_FAILED', 'TASK_FAILED', 'COMMIT_CREATED', 'TASK_COMPLETED']);
  });

  it('fails at once when the test command does not exist: no node re-run, no second coder attempt', async () => {
    const project = await makeCalcProject({ coder: fixTurns() });
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      testCommand: ['no-such-test-runner', '-q'],
      envRetryLimit: 2,
      models: { coder: `scripted:${project.scriptFile}` },
    });
    const outcome = await taskOutcome(await startTestTask(t.client, t.host.taskQueue, spec));

    expect(outcome.status).toBe('FAILED');
    expect(outcome.recommendation).toBe('environment_problem');
    expect(outcome.attempts).toHaveLength(1);
    expect(outcome.attempts[0]?.envRetries).toBe(0);
    expect(outcome.attempts[0]?.failure?.cause?.kind).toBe('TestCommandNotFound');
    expect(outcome.reason).toContain('test command not found: no-such-test-runner');
    expect(outcome.attempts[0]?.coder?.telemetry.modelRequests).toBe(2);
  });

  it('fails at once, naming the variable, when the tests need an environment variable that is not set', async () => {
    const files = {
      ...calcFiles,
      'tests/test_calc.py':
        "import os\n\nfrom calc import add\n\n\ndef test_add():\n    token = os.environ['CALC_API_TOKEN']\n    assert token and add(2, 3) == 5\n",
    };
    const project = await makeCalcProject({ coder: [...fixTurns(), ...fixTurns()] }, files);
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      models: { coder: `scripted:${project.scriptFile}` },
    });
    const outcome = await taskOutcome(await startTestTask(t.client, t.host.taskQueue, spec));

    expect(outcome).toMatchObject({ status: 'FAILED', recommendation: 'environment_problem' });
    expect(outcome.attempts).toHaveLength(1);
    expect(outcome.attempts[0]?.failure?.cause).toMatchObject({
      kind: 'MissingEnvVar',
      details: { variable: 'CALC_API_TOKEN' },
    });
    expect(outcome.reason).toContain("set CALC_API_TOKEN in the task's testEnv");
  });

  it('starting the same task twice gives one workflow', async () => {
    const project = await makeCalcProject({ coder: fixTurns() });
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      models: { coder: `scripted:${project.scriptFile}` },
    });
    const first = await startTestTask(t.client, t.host.taskQueue, spec);
    const second = await startTestTask(t.client, t.host.taskQueue, spec);
    expect(second.workflowId).toBe(first.workflowId);
    await first.result();
    const runs = [];
    for await (const execution of t.client.workflow.list({ query: `WorkflowId = "${first.workflowId}"` }))
      runs.push(execution);
    expect(runs.length).toBeLessThanOrEqual(1);
    expect(await taskloopCommits(project.repo, `taskloop/${spec.id}`)).toHaveLength(1);
  });
});
