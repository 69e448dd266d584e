// A landing through a worker SIGKILL and a dev-server restart while the tests run on the merged tree: the change
// lands exactly once, main's tree is the tree that was tested, and no folder of the killed run is left behind.
import { Client, Connection } from '@temporalio/client';
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startDevServer, type RunningDevServer } from '../../platform/server/dev-server.js';
import { findFreePort } from '../../platform/server/ports.js';
import { landerStateQuery, type LanderView } from '../../workflows/land/messages.js';
import { runTaskloop, startWorkerProcess } from '../support/cli.js';
import { calcFiles, fixTurns, makeCalcProject } from '../support/calc-project.js';
import { git } from './support/tasks.js';
import { eventually, uniqueId } from './support/temporal.js';

interface Printed {
  status: string;
  commit?: { sha: string };
  landing?: { status: string; lander?: string; landed?: string; tests?: { tree: string; outcome: string } };
}

describe('a landing through a worker kill and a server restart during the tests on the merged tree', () => {
  let server: RunningDevServer | undefined;
  const children: { kill(signal?: NodeJS.Signals): boolean }[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await server?.stop();
  });

  it('lands once, the tested tree, and leaves no folder of the killed run', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-land-kill-'));
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
    // The worker's own temp folder: what a killed run leaves there is seen here, not mixed with other tests'.
    const tmp = await mkdtemp(path.join(dir, 'tmp-'));
    const env = {
      ...process.env,
      TMPDIR: tmp,
      TEMPORAL_ADDRESS: server.address,
      TASKLOOP_TASK_QUEUE: uniqueId('land-kill'),
      TASKLOOP_WORK_DIR: workDir,
      TASKLOOP_HOST_ID: uniqueId('host'),
      TASKLOOP_EVENTS_FILE: path.join(workDir, 'events.jsonl'),
    };
    let worker = await startWorkerProcess(env);
    children.push(worker.child);
    // A slow test, so the kill finds the merged tree's run under way.
    const slow = 'import time\n\n\ndef test_slow():\n    time.sleep(8)\n';
    const project = await makeCalcProject({ coder: fixTurns() }, { ...calcFiles, 'test_slow.py': slow });
    const id = 'land-through-kills';
    const cli = (...args: string[]) => runTaskloop(args, { env, cwd: project.dir, timeout: 120_000 });
    const statusOf = async () => {
      const printed = JSON.parse((await cli('status', `task-default-${id}`, '--json')).stdout) as {
        state?: Printed;
        outcome?: Printed;
      };
      return printed.outcome ?? printed.state;
    };
    const started = await cli(
      ...['run', '--repo', project.repo, '--goal', 'Fix add in calc.py', '--model', 'scripted:script.json'],
      ...['--test-command', "python3 -m pytest -p 'no:cacheprovider' -q", '--id', id, '--land-on', 'main'],
    );
    expect(started.exitCode, started.all).toBe(0);
    const queued = await eventually(
      'the change queued on main',
      async () => {
        const state = await statusOf().catch(() => undefined);
        return state?.landing?.lander ? state : undefined;
      },
      240_000,
    );
    const landerView = async (): Promise<LanderView | undefined> => {
      const connection = await Connection.connect({ address: server!.address });
      try {
        const handle = new Client({ connection }).workflow.getHandle(queued.landing!.lander!);
        return await handle.query(landerStateQuery);
      } catch {
        return undefined;
      } finally {
        await connection.close();
      }
    };
    await eventually(
      'the tests on the merged tree under way',
      async () => ((await landerView())?.current?.step === 'test' ? true : undefined),
      120_000,
    );

    // The worker dies hard while the tests run, and the server restarts on the same database.
    worker.child.kill('SIGKILL');
    await worker.child.catch(() => undefined);
    process.kill(server.pid as number, 'SIGKILL');
    await server.exited;
    server = await startDevServer(options);
    worker = await startWorkerProcess(env);
    children.push(worker.child);

    const done = await eventually(
      'the task completes',
      async () => {
        const state = await statusOf().catch(() => undefined);
        return state?.status === 'COMPLETED' || state?.status === 'FAILED' ? state : undefined;
      },
      300_000,
    );
    expect(done.status).toBe('COMPLETED');
    expect(done.landing).toMatchObject({ status: 'landed', tests: { outcome: 'passed' } });
    const main = (await git(project.repo, 'rev-parse', 'main')).trim();
    expect(main).toBe(done.landing?.landed);
    // main's tree is the one the queue tested; the change is on main once.
    expect((await git(project.repo, 'rev-parse', 'main^{tree}')).trim()).toBe(done.landing?.tests?.tree);
    const onMain = (await git(project.repo, 'log', '--format=%H', 'main')).trim().split('\n');
    expect(onMain.filter((sha) => sha === done.commit?.sha)).toHaveLength(1);
    expect(new Set(onMain).size).toBe(onMain.length);
    // The killed run's folder of the merged tree is gone (swept by the run after it), and nothing in the temp folder.
    expect(await readdir(path.join(workDir, 'landing'))).toEqual([]);
    expect((await readdir(tmp)).filter((name) => name.startsWith('taskloop-land-'))).toEqual([]);
  }, 600_000);
});
