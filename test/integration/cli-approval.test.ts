// Approval from the command line, through a worker SIGKILL and a dev-server restart during the wait: `run --approval
// required` waits; `list --status awaiting-approval` and `status --json` show it; `request-changes --as` starts a
// round; the worker is killed and the server restarted on the same database while round 2 waits; a stale answer is
// refused (exit 1, naming the round that waits); `approve` afterwards is taken and the task completes; `show` (text,
// --json, --html) tells the two rounds.
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startDevServer, type RunningDevServer } from '../../platform/server/dev-server.js';
import { findFreePort } from '../../platform/server/ports.js';
import { runTaskloop, startWorkerProcess } from '../support/cli.js';
import { fixTurns, makeCalcProject, turn } from '../support/calc-project.js';
import { eventually, uniqueId } from './support/temporal.js';

const docstringTurns = () => [
  turn('replace_in_file', { path: 'calc.py', old: 'def add(a, b):\n', new: 'def add(a, b):\n    """Sum."""\n' }),
  turn('finish', { summary: 'documented add' }),
];

interface StatusJson {
  status: string;
  review?: { rounds: { round: number; sha: string; answer?: { kind: string; author: string } }[] };
}

describe('approval from the CLI across a worker kill and a server restart', () => {
  let server: RunningDevServer | undefined;
  const children: { kill(signal?: NodeJS.Signals): boolean }[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await server?.stop();
  });

  it('the wait survives both, a stale answer is refused, and an approve afterwards completes the task', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-approval-'));
    const options = {
      cliPath: inject('temporalCli'),
      port: await findFreePort(),
      headless: true,
      dbFile: path.join(dir, 'temporal.db'),
      logFile: path.join(dir, 'server.log'),
      readyTimeoutMs: 90_000,
    };
    server = await startDevServer(options);
    const workDir = path.join(dir, 'work');
    const env = {
      ...process.env,
      TEMPORAL_ADDRESS: server.address,
      TASKLOOP_TASK_QUEUE: uniqueId('approval'),
      TASKLOOP_WORK_DIR: workDir,
      TASKLOOP_HOST_ID: uniqueId('host'),
      TASKLOOP_EVENTS_FILE: path.join(workDir, 'events.jsonl'),
      TASKLOOP_USER: 'ana',
    };
    let worker = await startWorkerProcess(env);
    children.push(worker.child);
    const project = await makeCalcProject({ coder: [...fixTurns(), ...docstringTurns()] });
    const id = 'task-default-approve-me';
    const cli = (...args: string[]) => runTaskloop(args, { env, cwd: project.dir, timeout: 120_000 });
    // `status --json` of a task: its `state` while it runs, its `outcome` once it has ended (docs/cli.md).
    const statusOf = async () => {
      const printed = JSON.parse((await cli('status', id, '--json')).stdout) as {
        state?: StatusJson;
        outcome?: StatusJson;
      };
      return printed.state ?? printed.outcome;
    };
    const untilRound = (round: number) =>
      eventually(
        `round ${round} awaits approval`,
        async () => {
          const state = await statusOf().catch(() => undefined);
          return state?.status === 'AWAITING_APPROVAL' && state.review?.rounds.length === round ? state : undefined;
        },
        120_000,
      );

    const started = await cli(
      ...['run', '--repo', project.repo, '--goal', 'Fix add in calc.py', '--model', 'scripted:script.json'],
      ...[
        '--test-command',
        "python3 -m pytest -p 'no:cacheprovider' -q",
        '--id',
        'approve-me',
        '--approval',
        'required',
      ],
    );
    expect(started.exitCode, started.all).toBe(0);
    await untilRound(1);
    const listed = await cli('list', '--status', 'awaiting-approval', '--json');
    expect(listed.stdout).toContain(id);

    const asked = await cli('request-changes', id, '--comment', 'Give add a docstring.', '--round', '1');
    expect(asked.exitCode, asked.all).toBe(0);
    expect(asked.stdout).toContain(`request-changes taken: ${id}, round 1, by ana`);
    const waiting = await untilRound(2);

    // The worker dies hard and the server restarts on the same database while round 2 waits.
    worker.child.kill('SIGKILL');
    await worker.child.catch(() => undefined);
    process.kill(server.pid as number, 'SIGKILL');
    await server.exited;
    server = await startDevServer(options);
    worker = await startWorkerProcess(env);
    children.push(worker.child);

    const stale = await cli('approve', id, '--round', '1', '--as', 'bo');
    expect(stale.exitCode, stale.all).toBe(1);
    expect(stale.stderr).toMatch(/waits for approval of round 2 .*names round 1, an earlier round/);

    const approved = await cli('approve', id, '--round', '2', '--as', 'bo', '--comment', 'thanks');
    expect(approved.exitCode, approved.all).toBe(0);
    const done = await eventually(
      'the task completes',
      async () => {
        const state = await statusOf().catch(() => undefined);
        return state?.status === 'COMPLETED' ? state : undefined;
      },
      120_000,
    );
    expect(done.review?.rounds.map((round) => [round.round, round.answer?.kind, round.answer?.author])).toEqual([
      [1, 'request-changes', 'ana'],
      [2, 'approve', 'bo'],
    ]);
    expect(done.review?.rounds[1]?.sha).toBe(waiting.review?.rounds[1]?.sha);

    // `show` tells the rounds: the words that started round 2, its attempt and verdicts, its commit, the answer.
    const round2Sha = done.review?.rounds[1]?.sha.slice(0, 12) ?? '';
    const shown = await cli('show', id);
    expect(shown.exitCode, shown.all).toBe(0);
    expect(shown.stdout).toMatch(/^review: approved by bo at \S+Z \(round 2\): thanks$/m);
    expect(shown.stdout).toMatch(/^ {4}answer: changes requested by ana at \S+Z: Give add a docstring\.$/m);
    expect(shown.stdout).toMatch(/^ {2}round 2, asked for by ana at \S+Z: "Give add a docstring\."$/m);
    expect(shown.stdout).toMatch(/^ {4}attempt 2: PASSED \(tests passed, review passed, judge passed\)$/m);
    expect(shown.stdout).toContain(`    commit ${round2Sha} on taskloop/approve-me, waiting from `);
    const asJson = JSON.parse((await cli('show', id, '--json')).stdout) as {
      trajectory: { review?: { final: string; rounds: { round: number; attempts: { attempt: number }[] }[] } };
    };
    expect(
      asJson.trajectory.review?.rounds.map((round) => [round.round, round.attempts.map((a) => a.attempt)]),
    ).toEqual([
      [1, [1]],
      [2, [2]],
    ]);
    const pageFile = path.join(dir, 'show.html');
    expect((await cli('show', id, '--html', pageFile)).exitCode).toBe(0);
    const page = await readFile(pageFile, 'utf8');
    expect(page).toContain('<h3>review: approved by bo at ');
    expect(page).toContain('round 2, asked for by ana at ');
    expect(page).toContain('answer: changes requested by ana at ');

    const again = await cli('approve', id);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain(`${id} has closed (COMPLETED): nothing of it awaits approval`);
  }, 300_000);
});
