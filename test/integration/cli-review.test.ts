// `taskloop review` as a terminal program: run in tmux (a real TTY), it lists the task that awaits approval, shows
// its goal, tests, verdicts and diff through the pager, and an `a` typed at its prompt approves the round shown.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { runTaskloop, taskloopBin } from '../support/cli.js';
import { fixTurns, makeCalcProject } from '../support/calc-project.js';
import { startTestTask, taskOutcome, taskSpec, waitForState } from './support/tasks.js';
import { eventually, uniqueId, useTestTemporal, workerProcessEnv } from './support/temporal.js';

const tmux = (...args: string[]) => execa('tmux', args);
const screen = async (session: string) => (await tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', session)).stdout;

describe('taskloop review in a terminal', () => {
  const t = useTestTemporal('review');

  it('shows the waiting change and approves it with one key', async () => {
    const project = await makeCalcProject({ coder: fixTurns() });
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      models: { coder: `scripted:${project.scriptFile}` },
      approval: 'required',
    });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    await waitForState(handle, 'awaiting approval', (state) => state.status === 'AWAITING_APPROVAL', 120_000);
    const env: NodeJS.ProcessEnv = {
      ...(await workerProcessEnv(t.host.taskQueue)),
      PAGER: 'cat',
      TASKLOOP_USER: 'ana',
    };

    const listed = await runTaskloop(['review', '--json', '--project', spec.project], { env });
    expect(listed.exitCode, listed.all).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ workflowId: handle.workflowId, round: 1, branch: `taskloop/${spec.id}` }),
    ]);

    const session = uniqueId('review');
    const vars = Object.entries({ TEMPORAL_ADDRESS: env.TEMPORAL_ADDRESS, PAGER: 'cat', TASKLOOP_USER: 'ana' })
      .map(([name, value]) => `${name}=${value ?? ''}`)
      .join(' ');
    await tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '200',
      '-y',
      '60',
      `env ${vars} node ${taskloopBin} review --project ${spec.project}; echo "review exited $?"; sleep 60`,
    );
    try {
      await eventually(
        'the prompt',
        async () => ((await screen(session)).includes('[a]pprove') ? true : undefined),
        60_000,
      );
      const page = await screen(session);
      expect(page).toContain(`${handle.workflowId} (project ${spec.project}): round 1 awaits approval`);
      expect(page).toContain('Fix add in calc.py');
      expect(page).toMatch(/tests: 2 passed, 0 failed/);
      expect(page).toContain('review: passed');
      expect(page).toContain('+    return a + b');
      await tmux('send-keys', '-t', session, 'a', 'Enter');
      await eventually(
        'the answer',
        async () => ((await screen(session)).includes('review exited 0') ? true : undefined),
        60_000,
      );
      expect(await screen(session)).toContain(`approve taken: ${handle.workflowId}, round 1, by ana`);
    } finally {
      await tmux('kill-session', '-t', session).catch(() => undefined);
    }
    expect((await taskOutcome(handle)).status).toBe('COMPLETED');
  }, 240_000);
});
