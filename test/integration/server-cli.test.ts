import { Client, Connection } from '@temporalio/client';
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { findDevServersUsing } from '../../platform/server/db-holders.js';
import { isTemporalServing } from '../../platform/server/dev-server.js';
import { findFreePort } from '../../platform/server/ports.js';
import { runTaskloop, startTaskloop } from '../support/cli.js';
import { uniqueId } from './support/temporal.js';

async function eventuallyServing(port: number): Promise<void> {
  for (let i = 0; i < 120; i++) {
    if (await isTemporalServing(`127.0.0.1:${port}`)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no Temporal server came up on port ${port}`);
}

const cliEnv = () => ({ ...process.env, TEMPORAL_CLI: inject('temporalCli') });

const startServerCli = (args: string[]) =>
  startTaskloop(['server', ...args], { env: cliEnv(), readyText: 'serving at' });

describe('taskloop server', () => {
  it('keeps workflows in its SQLite file (WAL) across a restart', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-db-'));
    const dbFile = path.join(dir, 'temporal.db');
    const port = await findFreePort();
    const args = ['--port', String(port), '--headless', '--db', dbFile];
    const workflowId = uniqueId('durable');

    const { child: first } = await startServerCli(args);
    const connection = await Connection.connect({ address: `127.0.0.1:${port}` });
    await new Client({ connection }).workflow.start('probeWorkflow', {
      taskQueue: 'nobody-serves-this',
      workflowId,
      args: [{ taskId: workflowId }],
    });
    await connection.close();
    expect(existsSync(`${dbFile}-wal`)).toBe(true);
    first.kill('SIGINT');
    await first;

    const { child: second } = await startServerCli(args);
    const again = await Connection.connect({ address: `127.0.0.1:${port}` });
    const description = await new Client({ connection: again }).workflow.getHandle(workflowId).describe();
    expect(description.status.name).toBe('RUNNING');
    await again.close();
    second.kill('SIGINT');
    await second;
  });

  it('--detach serves at TEMPORAL_ADDRESS; a second server on its database is refused, naming it; stop finds it with no pid file', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'taskloop-home-'));
    const dbFile = path.join(home, 'temporal.db');
    const pidFile = path.join(home, 'server.pid');
    const port = await findFreePort();
    const env = { ...cliEnv(), TASKLOOP_HOME: home, TEMPORAL_ADDRESS: `127.0.0.1:${port}` };
    try {
      const first = await runTaskloop(['server', '--detach', '--headless', '--json'], { env });
      expect(first.exitCode, first.all).toBe(0);
      const recorded = (await readFile(pidFile, 'utf8')).trim();
      // --json: the acting commands' one shape.
      expect(JSON.parse(first.stdout)).toEqual({
        command: 'server --detach',
        asked: { address: `127.0.0.1:${port}`, db: dbFile },
        happened: 'started',
        ids: [`127.0.0.1:${port}`],
        details: { pid: Number(recorded), uiUrl: null, db: dbFile, log: path.join(home, 'server.log') },
      });
      const again = await runTaskloop(['server', '--detach', '--headless', '--json'], { env });
      expect(JSON.parse(again.stdout)).toEqual({
        command: 'server --detach',
        asked: { address: `127.0.0.1:${port}`, db: dbFile },
        happened: 'already-serving',
        ids: [`127.0.0.1:${port}`],
      });
      const foreground = await runTaskloop(['server', '--headless', '--json'], { env });
      expect(foreground.exitCode).toBe(2);
      expect(foreground.stderr).toContain('--json goes with --detach');
      expect(await findDevServersUsing(dbFile)).toEqual([
        { pid: Number(recorded), address: `127.0.0.1:${port}`, dbFile },
      ]);

      const other = await findFreePort();
      const second = await runTaskloop(['server', '--detach', '--headless', '--port', String(other)], { env });
      expect(second.exitCode).toBe(1);
      expect(second.stderr.trim()).toBe(
        `taskloop: ${dbFile} is in use by the Temporal dev server with pid ${recorded} at 127.0.0.1:${port}; use that one (export TEMPORAL_ADDRESS=127.0.0.1:${port}) or stop it first (taskloop server stop)`,
      );
      expect((await readFile(pidFile, 'utf8')).trim()).toBe(recorded);
      expect(await isTemporalServing(`127.0.0.1:${other}`)).toBe(false);

      await rm(pidFile);
      const stop = await runTaskloop(['server', 'stop'], { env });
      expect(stop.exitCode, stop.all).toBe(0);
      expect(stop.stdout).toContain(`Stopped the Temporal dev server at 127.0.0.1:${port} (pid ${recorded})`);
      for (let i = 0; i < 120 && (await findDevServersUsing(dbFile)).length > 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await findDevServersUsing(dbFile)).toEqual([]);
    } finally {
      for (const server of await findDevServersUsing(dbFile)) process.kill(server.pid, 'SIGTERM');
    }
  });

  it('says so and exits 0 when a server is already up', async () => {
    const [, port] = inject('temporalAddress').split(':');
    const result = await runTaskloop(['server', '--port', String(port), '--headless'], { env: cliEnv() });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('already serving');
  });

  it('refuses a port held by another program, naming the port and the fix', async () => {
    const blocker = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => blocker.once('listening', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const result = await runTaskloop(['server', '--port', String(port), '--headless'], { env: cliEnv() });
    blocker.close();
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`port ${port}`);
    expect(result.stderr).toContain('--port');
  });
});

describe('bad input to the CLI', () => {
  it('answers an unknown flag with one line and exit 2', async () => {
    const result = await runTaskloop(['server', '--prot', '7233']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toMatch(/^taskloop server: Unknown option '--prot'.*--help/);
  });

  it('answers an unknown command with exit 2', async () => {
    const result = await runTaskloop(['serve']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('unknown command "serve"');
  });

  it('stops a worker that cannot reach TEMPORAL_ADDRESS with one line naming it', async () => {
    const port = await findFreePort();
    const result = await runTaskloop(['worker'], { env: { ...process.env, TEMPORAL_ADDRESS: `127.0.0.1:${port}` } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`cannot reach Temporal at 127\\.0\\.0\\.1:${port}.*TEMPORAL_ADDRESS`));
    // One sentence with the reason in words, not the transport's debug text.
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(': connection refused; start a local server with `taskloop server`');
    expect(result.stderr).not.toMatch(/tonic|ConnectError|Os \{/);
  });

  it('says TLS is on but the server does not use it, for a command and the worker, without waiting out a timeout', async () => {
    const env = { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_TLS: 'true' };
    for (const command of [['list'], ['worker']]) {
      const result = await runTaskloop(command, { env });
      expect(result.exitCode).toBe(1);
      expect(result.stderr.trim()).toBe(
        `taskloop: cannot reach Temporal at ${inject('temporalAddress')} (namespace default): TLS is on, but the server does not appear to use TLS; unset TEMPORAL_TLS (and the other TEMPORAL_TLS_* settings) for a plaintext server, or point TEMPORAL_ADDRESS at its TLS endpoint.`,
      );
    }
  });

  it('stops a worker whose server lacks the search attributes, naming the command that creates them', async () => {
    const port = await findFreePort();
    const bare = execa(
      inject('temporalCli'),
      ['server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'error'],
      { reject: false },
    );
    try {
      const result = await eventuallyServing(port).then(() =>
        runTaskloop(['worker'], { env: { ...process.env, TEMPORAL_ADDRESS: `127.0.0.1:${port}` } }),
      );
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain(
        'lacks the search attributes TaskId, Project, Phase, TaskStatus, FailureClass, Attempt, FailurePattern',
      );
      expect(result.stderr).toContain(
        'temporal operator search-attribute create --namespace default --name TaskId --type Keyword',
      );

      // `taskloop server` on that address registers what is missing (start-dev does so only for a new database).
      const server = await runTaskloop(['server', '--port', String(port), '--headless'], { env: cliEnv() });
      expect(server.exitCode).toBe(0);
      const { stdout } = await execa(inject('temporalCli'), [
        'operator',
        'search-attribute',
        'list',
        '--address',
        `127.0.0.1:${port}`,
      ]);
      for (const name of ['TaskId', 'Project', 'Phase', 'TaskStatus', 'FailureClass', 'Attempt', 'FailurePattern'])
        expect(stdout).toContain(name);
    } finally {
      bare.kill('SIGTERM');
      await bare;
    }
  });

  it('stops a worker without Python, naming what to install', async () => {
    // A reachable server: the worker checks its connection first (a refused one is reported before anything else).
    const env = {
      ...process.env,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TASKLOOP_PYTHON: '/nonexistent/python3',
    };
    const result = await runTaskloop(['worker'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toMatch(/^taskloop: \/nonexistent\/python3 was not found.*install Python 3/);
  });
});
