// `taskloop review` as a terminal program: run in tmux (a real TTY), it lists the task that awaits approval, shows
// its goal, tests, verdicts and diff through the pager, and a key typed at its prompt answers the round shown: `a`
// approves; `r` requests changes with the comment written by $EDITOR (a script here) and a new round starts, its
// coder told the comment; `j` rejects with the reason typed at the prompt (no $EDITOR) and the task fails.
import { execa } from 'execa';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTaskloop, taskloopBin } from '../support/cli.js';
import { fixTurns, makeCalcProject, turn } from '../support/calc-project.js';
import { makeTempDir } from '../support/git-repo.js';
import { startTestTask, taskOutcome, taskSpec, waitForState } from './support/tasks.js';
import { eventually, uniqueId, useTestTemporal, workerProcessEnv } from './support/temporal.js';

const tmux = (...args: string[]) => execa('tmux', args);
const screen = async (session: string) => (await tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', session)).stdout;
const until = (session: string, text: string) =>
  eventually(text, async () => ((await screen(session)).includes(text) ? true : undefined), 60_000);

/** Runs `taskloop review ARGS` in a tmux session of its own with `vars` set; the session stays after it exits. */
async function reviewInTmux(vars: Record<string, string | undefined>, args: string): Promise<string> {
  const session = uniqueId('review');
  const assigned = Object.entries(vars)
    .map(([name, value]) => `${name}=${JSON.stringify(value ?? '')}`)
    .join(' ');
  await tmux(
    ...['new-session', '-d', '-s', session, '-x', '200', '-y', '60'],
    `env ${assigned} node ${taskloopBin} review ${args}; echo "review exited $?"; sleep 60`,
  );
  return session;
}

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

    const vars = { TEMPORAL_ADDRESS: env.TEMPORAL_ADDRESS, PAGER: 'cat', TASKLOOP_USER: 'ana' };
    const session = await reviewInTmux(vars, `--project ${spec.project}`);
    try {
      await until(session, '[a]pprove');
      const page = await screen(session);
      expect(page).toContain(`${handle.workflowId} (project ${spec.project}): round 1 awaits approval`);
      expect(page).toContain('Fix add in calc.py');
      expect(page).toMatch(/tests: 2 passed, 0 failed/);
      expect(page).toContain('review: passed');
      expect(page).toContain('+    return a + b');
      await tmux('send-keys', '-t', session, 'a', 'Enter');
      await until(session, 'review exited 0');
      expect(await screen(session)).toContain(`approve taken: ${handle.workflowId}, round 1, by ana`);
    } finally {
      await tmux('kill-session', '-t', session).catch(() => undefined);
    }
    expect((await taskOutcome(handle)).status).toBe('COMPLETED');
  }, 240_000);

  it('requests changes with the comment from $EDITOR (a new round told it) and rejects with a reason typed at the prompt', async () => {
    const docstring = [
      turn('replace_in_file', { path: 'calc.py', old: 'def add(a, b):\n', new: 'def add(a, b):\n    """Sum."""\n' }),
      turn('finish', { summary: 'documented add' }),
    ];
    const changed = await makeCalcProject({ coder: [...fixTurns(), ...docstring] });
    const rejected = await makeCalcProject({ coder: fixTurns() });
    const start = async (project: typeof changed) => {
      const spec = taskSpec({
        project: uniqueId('rv'),
        repo: project.repo,
        goal: 'Fix add in calc.py',
        models: { coder: `scripted:${project.scriptFile}` },
        approval: 'required',
      });
      return { spec, handle: await startTestTask(t.client, t.host.taskQueue, spec) };
    };
    const [a, b] = await Promise.all([start(changed), start(rejected)]);
    for (const { handle } of [a, b])
      await waitForState(handle, 'awaiting approval', (state) => state.status === 'AWAITING_APPROVAL', 120_000);
    // The editor: a script that writes the comment into the file it is given, as a person would.
    const editor = path.join(await makeTempDir(), 'editor.sh');
    await writeFile(editor, '#!/bin/sh\nprintf "Please give add a docstring.\\n" > "$1"\n');
    await chmod(editor, 0o755);
    const address = (await workerProcessEnv(t.host.taskQueue)).TEMPORAL_ADDRESS;
    const base = { TEMPORAL_ADDRESS: address, PAGER: 'cat', TASKLOOP_USER: 'ana' };

    const asking = await reviewInTmux({ ...base, EDITOR: editor }, `--project ${a.spec.project}`);
    try {
      await until(asking, '[a]pprove');
      await tmux('send-keys', '-t', asking, 'r', 'Enter');
      await until(asking, 'review exited 0');
      expect(await screen(asking)).toContain(`request-changes taken: ${a.handle.workflowId}, round 1, by ana`);
    } finally {
      await tmux('kill-session', '-t', asking).catch(() => undefined);
    }
    const round2 = await waitForState(
      a.handle,
      'round 2 awaits approval',
      (state) => state.status === 'AWAITING_APPROVAL' && state.review?.rounds.length === 2,
      120_000,
    );
    expect(round2.review?.rounds[0]?.answer).toMatchObject({
      kind: 'request-changes',
      author: 'ana',
      text: 'Please give add a docstring.',
    });
    const attempt2 = round2.attempts.at(-1)!;
    expect(attempt2.round).toBe(2);
    const transcript = await readFile(attempt2.coder?.transcript?.path ?? '', 'utf8');
    expect(transcript).toContain("The reviewer's words (ana):\\n> Please give add a docstring.");

    const rejecting = await reviewInTmux({ ...base, EDITOR: '', VISUAL: '' }, `--project ${b.spec.project}`);
    try {
      await until(rejecting, '[a]pprove');
      await tmux('send-keys', '-t', rejecting, 'j', 'Enter');
      await until(rejecting, 'reason: ');
      await tmux('send-keys', '-t', rejecting, 'not this way', 'Enter');
      await until(rejecting, 'review exited 0');
      expect(await screen(rejecting)).toContain(`reject taken: ${b.handle.workflowId}, round 1, by ana`);
    } finally {
      await tmux('kill-session', '-t', rejecting).catch(() => undefined);
    }
    const outcome = await taskOutcome(b.handle);
    expect(outcome.status).toBe('FAILED');
    expect(outcome.recommendation).toBe('rejected_by_reviewer');
    expect(outcome.reason).toContain('rejected by ana in review round 1: not this way');
    await a.handle.terminate('test over');
  }, 360_000);
});
