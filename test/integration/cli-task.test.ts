import { QueryNotRegisteredError, WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TaskOutcome, TaskState } from '../../domain/task-state.js';
import { taskWorkflowId } from '../../domain/task-spec.js';
import { startTask } from '../../client/tasks/start-task.js';
import { stateQuery } from '../../workflows/messages.js';
import { TaskIdKey } from '../../workflows/search-attributes.js';
import { runTaskloop } from '../support/cli.js';
import { calcIgnoringConftest, fixTurns, makeCalcProject, plantConftest, wrongTurns } from '../support/calc-project.js';
import { makeRepo } from '../support/git-repo.js';
import { eventually, startTestWorkers, type TestWorkerHost, uniqueId, useTestTemporal } from './support/temporal.js';
import { taskOutcome, taskSpec } from './support/tasks.js';

const PROJECT = 'itest';
const GOAL = 'Fix add in calc.py';

/** The real CLI against the test server; the scripted file is given relative to `cwd`, as a user would. */
function taskloop(args: string[], cwd?: string) {
  return runTaskloop(args, { cwd, env: { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress') } });
}

function runArgs(queue: string, id: string, repo: string, extra: string[] = []) {
  return [
    'run',
    '--repo',
    repo,
    '--goal',
    GOAL,
    '--model',
    'scripted:script.json',
    '--project',
    PROJECT,
    '--id',
    id,
    '--task-queue',
    queue,
    ...extra,
  ];
}

async function runIds(client: Client, taskId: string): Promise<string[]> {
  const runs: string[] = [];
  for await (const execution of client.workflow.list({ query: `${TaskIdKey.name} = "${taskId}"` }))
    runs.push(execution.runId);
  return runs;
}

async function expectNothingStarted(client: Client, taskId: string): Promise<void> {
  await expect(
    client.workflow.getHandle(taskWorkflowId({ project: PROJECT, id: taskId })).describe(),
  ).rejects.toBeInstanceOf(WorkflowNotFoundError);
  expect(await runIds(client, taskId)).toEqual([]);
}

/** Until the task stops at its first checkpoint; before its first workflow task has run it has no query handler. */
function waitUntilPaused(handle: WorkflowHandle): Promise<TaskState> {
  return eventually(
    `${handle.workflowId} paused`,
    async () => {
      const state = await handle.query(stateQuery).catch((error: unknown) => {
        if (error instanceof QueryNotRegisteredError) return undefined;
        throw error;
      });
      return state?.status === 'PAUSED' ? state : undefined;
    },
    60_000,
  );
}

describe('taskloop run, status, pause, resume, cancel and retry as a person runs them', () => {
  const t = useTestTemporal('cli-task');

  it('run --wait --json exits 0 with a COMPLETED outcome; the same command again is the same task; retry and pause refuse it', async () => {
    const project = await makeCalcProject({ coder: fixTurns() });
    const args = [
      'run',
      '--repo',
      project.repo,
      '--goal',
      GOAL,
      '--model',
      'scripted:script.json',
      '--project',
      PROJECT,
      '--task-queue',
      t.host.taskQueue,
    ];
    const testCommand = ['--test-command', `python3 -m pytest -p 'no:cacheprovider' -q`];
    const result = await taskloop([...args, ...testCommand, '--wait', '--json'], project.dir);

    expect(result.exitCode, result.all).toBe(0);
    const outcome = JSON.parse(result.stdout) as TaskOutcome;
    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.attempts.map((attempt) => attempt.status)).toEqual(['PASSED']);
    expect(outcome.workflowId).toMatch(/^task-itest-fix-add-in-calc-py-[0-9a-f]{6}$/);

    const taskId = outcome.workflowId.replace(`task-${PROJECT}-`, '');
    const [again, differs, retry, pause] = await Promise.all([
      taskloop([...args, ...testCommand, '--json'], project.dir),
      taskloop(
        [...args.map((arg) => (arg === GOAL ? 'Fix mul in calc.py' : arg)), ...testCommand, '--id', taskId],
        project.dir,
      ),
      taskloop(['retry', outcome.workflowId]),
      taskloop(['pause', outcome.workflowId]),
    ]);
    expect(again.exitCode, again.all).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ workflowId: outcome.workflowId, started: false });
    expect(again.stderr).toContain(`task ${outcome.workflowId} already exists (status COMPLETED)`);
    expect(differs.exitCode, differs.all).toBe(2);
    expect(differs.stderr).toContain(`task ${outcome.workflowId} already exists with a different goal`);
    expect(differs.stderr).toContain(`taskloop retry ${outcome.workflowId}`);
    expect(differs.stderr).toContain('pass a new --id');
    expect(retry.exitCode).toBe(1);
    expect(retry.stderr).toContain(`task ${outcome.workflowId} already completed (commit ${outcome.commit?.sha})`);
    expect(pause.exitCode).toBe(1);
    expect(pause.stderr.trim()).toBe(
      `taskloop pause: task ${outcome.workflowId} has already closed (task COMPLETED); there is nothing to pause`,
    );
  });

  it('run --wait --json exits 1 when the task fails; status names the git-ignored file removed before the tests; retry --hint then starts a new run whose attempt 3 sees the hint and the carried attempts', async () => {
    // Attempt 1 also plants a git-ignored conftest.py that would make its wrong edit pass: the test node removes it
    // before pytest starts (so the attempt still fails), and `taskloop status` names it.
    const coder = [plantConftest(), ...wrongTurns(), ...wrongTurns(), ...fixTurns()];
    const project = await makeCalcProject({ coder }, calcIgnoringConftest);
    const id = uniqueId('hint');
    const first = await taskloop(
      runArgs(t.host.taskQueue, id, project.repo, ['--max-retries', '1', '--retry-window', '0', '--wait', '--json']),
      project.dir,
    );
    expect(first.exitCode, first.all).toBe(1);
    const failed = JSON.parse(first.stdout) as TaskOutcome;
    expect(failed).toMatchObject({ status: 'FAILED', recommendation: 'code_defect' });
    expect(failed.attempts.map((attempt) => attempt.status)).toEqual(['REWORK_REQUIRED', 'FAILED']);
    expect(failed.attempts.map((attempt) => attempt.test?.ignoredRemoved)).toEqual([['tests/conftest.py'], undefined]);
    const status = await taskloop(['status', id]);
    expect(status.exitCode, status.all).toBe(0);
    expect(status.stdout).toContain('FAILED');
    expect(status.stdout).toContain('code_defect');
    expect(status.stdout).toContain('attempt 1: removed before its tests, as git ignores them: tests/conftest.py');
    // It ends with the command to run next: a retry with a hint for a code defect.
    expect(status.stdout.trim().split('\n').at(-1)).toMatch(
      new RegExp(`^next: taskloop retry ${failed.workflowId} --hint "[^"]+"`),
    );

    const hint = 'add must return a + b, not a product';
    // --wait follows the new run to its end: exit 0 once it COMPLETED, its outcome printed.
    const retry = await taskloop(['retry', id, '--hint', hint, '--wait']);
    expect(retry.exitCode, retry.all).toBe(0);
    expect(retry.stdout).toContain('attempt 3 with your hint, 2 earlier attempt(s) carried');
    expect(retry.stdout).not.toContain('follow it:');
    expect(retry.stdout).toMatch(/COMPLETED/);

    const workflowId = taskWorkflowId({ project: PROJECT, id });
    const outcome = (await t.client.workflow.getHandle(workflowId).result()) as TaskOutcome;
    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.attempts.map((attempt) => attempt.status)).toEqual(['REWORK_REQUIRED', 'FAILED', 'PASSED']);
    expect(outcome.attempts[2]?.hint).toBe(hint);
    const transcript = JSON.parse(await readFile(outcome.attempts[2]?.coder?.transcript?.path ?? '', 'utf8')) as {
      role: string;
      content: string;
    }[];
    const firstUser = transcript.find((message) => message.role === 'user')?.content ?? '';
    expect(firstUser).toContain(`# Hint from a human\n${hint}`);
    expect(firstUser).toContain('What attempt 2 did');
    expect(
      await eventually('two runs of the workflow id', async () =>
        (await runIds(t.client, id)).length === 2 ? true : undefined,
      ),
    ).toBe(true);
  });

  it.concurrent.each([
    [
      '--max-retries three',
      async () => ({ args: ['--max-retries', 'three'] }),
      /--max-retries \(maxRetries\): expected a whole number from 0 to 2 \(the loop's retry cap: at most 3 coder attempts\), got "three"/,
    ],
    [
      'repo not a git repository',
      async () => ({ args: [], cwd: await mkdtemp(path.join(os.tmpdir(), 'taskloop-')) }),
      /repo: .* is not a git repository/,
    ],
    [
      'unknown base ref',
      async () => ({ args: ['--base-ref', 'no-such-branch'] }),
      /baseRef: "no-such-branch" is not a commit/,
    ],
    [
      'malformed scripted file',
      async () => ({ args: [], script: { coder: [{ tool_calls: { name: 'finish' } }] } }),
      /models\.coder: .*tool_calls.*array/,
    ],
    ['unknown flag', async () => ({ args: ['--colour', 'red'] }), /Unknown option '--colour'/],
  ])('refuses bad input (%s) with exit 2, one line naming it, and starts nothing', async (_name, make, message) => {
    const bad: { args: string[]; cwd?: string; script?: unknown } = await make();
    const project = await makeCalcProject({ coder: fixTurns() });
    if (bad.script) await writeFile(path.join(project.dir, 'script.json'), JSON.stringify(bad.script));
    const cwd = bad.cwd ?? project.dir;
    const id = uniqueId('bad');
    const repo = bad.cwd ? bad.cwd : project.repo;
    const result = await taskloop(runArgs(t.host.taskQueue, id, repo, bad.args), cwd);

    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    await expectNothingStarted(t.client, id);
  });

  it('status of an unknown id exits 2; a task id used in two projects is ambiguous and lists both', async () => {
    const id = uniqueId('twice');
    const idleQueue = uniqueId('nobody-serves');
    const repo = await makeRepo();
    const started = await Promise.all(
      ['p1', 'p2'].map((project) =>
        startTask(t.client, taskSpec({ id, project, repo, goal: GOAL, models: { coder: 'openai:none' } }), {
          taskQueue: idleQueue,
        }),
      ),
    );
    try {
      await eventually('both runs visible', async () => ((await runIds(t.client, id)).length === 2 ? true : undefined));
      const [ambiguous, unknown] = await Promise.all([taskloop(['status', id]), taskloop(['status', 'no-such-task'])]);
      expect(ambiguous.exitCode).toBe(2);
      expect(ambiguous.stderr).toContain(
        `task id ${id} is ambiguous, it names 2 workflows: task-p1-${id}, task-p2-${id}`,
      );
      expect(unknown.exitCode).toBe(2);
      expect(unknown.stderr).toContain('no task with id no-such-task');
    } finally {
      await Promise.all(started.map(({ handle }) => handle.terminate('test over')));
    }
  });

  describe.concurrent('a task paused right after it started', () => {
    let pausedHost: TestWorkerHost | undefined;
    const queue = uniqueId('cli-paused');
    const ids = { resumed: uniqueId('resumed'), cancelled: uniqueId('cancelled') };
    const workflowIds = {
      resumed: taskWorkflowId({ project: PROJECT, id: ids.resumed }),
      cancelled: taskWorkflowId({ project: PROJECT, id: ids.cancelled }),
    };
    let pauseOutputs: string[] = [];

    // Both tasks are started and paused before any worker serves their queue, so the pause is in place before
    // the first node whatever the machine's speed; then a worker comes and the tasks stop at their first checkpoint.
    beforeAll(async () => {
      await Promise.all(
        Object.values(ids).map(async (id) => {
          const project = await makeCalcProject({ coder: fixTurns() });
          const run = await taskloop(runArgs(queue, id, project.repo, ['--json']), project.dir);
          expect(run.exitCode, run.all).toBe(0);
          const json = id === ids.cancelled ? ['--json'] : [];
          const pause = await taskloop([
            'pause',
            (JSON.parse(run.stdout) as { workflowId: string }).workflowId,
            ...json,
          ]);
          expect(pause.exitCode, pause.all).toBe(0);
          pauseOutputs.push(pause.stdout);
        }),
      );
      pausedHost = await startTestWorkers({ taskQueue: queue });
    });

    afterAll(async () => {
      await pausedHost?.stop();
      pauseOutputs = [];
    });

    it('status shows it PAUSED, a retry is refused, and resume lets it complete', async () => {
      expect(pauseOutputs.join('\n')).toContain(`sent pause to ${workflowIds.resumed}`);
      const handle = t.client.workflow.getHandle(workflowIds.resumed);
      await waitUntilPaused(handle);

      const [json, retry] = await Promise.all([
        taskloop(['status', workflowIds.resumed, '--json']),
        taskloop(['retry', workflowIds.resumed]),
      ]);
      expect(json.exitCode, json.all).toBe(0);
      const reading = JSON.parse(json.stdout) as { executionStatus: string; workflowStatus: string; state: TaskState };
      // executionStatus is the one key; workflowStatus, its 0.1 name, repeats it for one release.
      expect(reading).toMatchObject({ executionStatus: 'RUNNING', workflowStatus: 'RUNNING', live: null });
      expect(reading.state).toMatchObject({ status: 'PAUSED', paused: true, attempt: 1, phase: 'claim' });
      expect(reading.state.attempts.map((attempt) => attempt.status)).toEqual(['RUNNING']);
      expect(retry.exitCode).toBe(1);
      expect(retry.stderr).toContain('refused the retry');
      expect(retry.stderr).toContain('retry is accepted only while it waits for a hint');

      const resume = await taskloop(['resume', ids.resumed, '--json']);
      expect(resume.exitCode, resume.all).toBe(0);
      expect(JSON.parse(resume.stdout)).toEqual({
        command: 'resume',
        asked: { id: ids.resumed },
        happened: 'signalled',
        ids: [workflowIds.resumed],
        details: { kind: 'task' },
      });
      expect(((await handle.result()) as TaskOutcome).status).toBe('COMPLETED');
    });

    it('cancel ends the paused task CANCELLED with the reason', async () => {
      // Its pause was sent with --json: the acting commands' one shape.
      expect(pauseOutputs.map((output) => output.trim()).filter((output) => output.startsWith('{'))).toEqual([
        JSON.stringify({
          command: 'pause',
          asked: { id: workflowIds.cancelled },
          happened: 'signalled',
          ids: [workflowIds.cancelled],
          details: { kind: 'task' },
        }),
      ]);
      const handle = t.client.workflow.getHandle(workflowIds.cancelled);
      await waitUntilPaused(handle);
      const cancel = await taskloop(['cancel', workflowIds.cancelled, '--reason', 'not needed any more']);
      expect(cancel.exitCode, cancel.all).toBe(0);
      expect(cancel.stdout).toContain(`sent cancel to ${workflowIds.cancelled} (reason: not needed any more)`);
      const outcome = await taskOutcome(handle);
      expect(outcome).toMatchObject({ status: 'CANCELLED', reason: 'not needed any more' });
      expect((await handle.describe()).status.name).toBe('CANCELLED');
      expect(outcome.commit).toBeUndefined();
    });
  });
});
