// The worker-upgrade walk-through of docs/operating.md on separate hosts (each its own work folder, so its own host queue):
// version A serves; version B starts elsewhere and prints the command that makes it current; that command, run as
// printed, works; a third version started with --promote on yet another host becomes current by itself.
import { execa, type ResultPromise } from 'execa';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { projectRoot } from '../../platform/paths.js';
import { taskloopBin } from '../support/cli.js';
import { uniqueId } from './support/temporal.js';

/** A `taskloop worker` process on a host of its own; resolves with its output once it has said `until`. */
async function startHost(env: NodeJS.ProcessEnv, until: RegExp): Promise<{ child: ResultPromise; output: string }> {
  const child = execa('node', [taskloopBin, 'worker', '--grace', '1s'], { env, all: true, reject: false });
  const output = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no ${String(until)} within 60 s:\n${text}`)), 60_000);
    child.all?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (until.test(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
    void child.then(() => reject(new Error(`the worker exited:\n${text}`)));
  });
  return { child, output };
}

describe('upgrading workers on two hosts', () => {
  const children: ResultPromise[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => child.catch(() => undefined)));
  });

  it('B prints a set-current-version command that works as printed; --promote works from a third host', async () => {
    const address = inject('temporalAddress');
    const cli = inject('temporalCli');
    const deployment = uniqueId('upgrade');
    const queue = uniqueId('upgrade-queue');
    const host = async (buildId: string, extra: Record<string, string> = {}) => {
      const workDir = await mkdtemp(path.join(os.tmpdir(), `taskloop-host-${buildId}-`));
      return {
        ...process.env,
        TEMPORAL_ADDRESS: address,
        TASKLOOP_TASK_QUEUE: queue,
        TASKLOOP_WORK_DIR: workDir,
        TASKLOOP_HOST_ID: uniqueId(`host-${buildId}`),
        TASKLOOP_EVENTS_FILE: path.join(workDir, 'events.jsonl'),
        TASKLOOP_DEPLOYMENT: deployment,
        TASKLOOP_BUILD_ID: buildId,
        ...extra,
      };
    };
    const current = async () => {
      const { stdout } = await execa(cli, [
        'worker',
        'deployment',
        'describe',
        '--name',
        deployment,
        '--address',
        address,
        '--output',
        'json',
      ]);
      const described = JSON.parse(stdout) as { routingConfig?: { currentVersionBuildID?: string } };
      return described.routingConfig?.currentVersionBuildID;
    };

    const a = await startHost(await host('0.1.0-a'), /build id 0\.1\.0-a: current/);
    children.push(a.child);
    expect(await current()).toBe('0.1.0-a');

    const b = await startHost(await host('0.1.1-b'), /build id 0\.1\.1-b: not current; make it current with: (.*)\n/);
    children.push(b.child);
    const printed = /make it current with: (temporal worker deployment set-current-version .*)\n/.exec(b.output)?.[1];
    expect(printed).toBe(
      `temporal worker deployment set-current-version --deployment-name ${deployment} --build-id 0.1.1-b --ignore-missing-task-queues --yes`,
    );
    // Run as printed (only the binary's path and the test server's address added).
    const words = (printed as string).split(' ').slice(1);
    const set = await execa(cli, [...words, '--address', address], { reject: false, all: true });
    expect(set.exitCode, set.all).toBe(0);
    expect(await current()).toBe('0.1.1-b');
    // docs/operating.md gives the same command.
    const operating = await readFile(path.join(projectRoot, 'docs', 'operating.md'), 'utf8');
    expect(operating).toContain(
      'temporal worker deployment set-current-version --deployment-name taskloop --build-id 0.1.1+next --ignore-missing-task-queues --yes',
    );

    const c = await startHost(await host('0.1.2-c', { TASKLOOP_PROMOTE: '1' }), /build id 0\.1\.2-c: current/);
    children.push(c.child);
    expect(await current()).toBe('0.1.2-c');
  }, 180_000);
});
