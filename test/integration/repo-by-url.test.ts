import { execa, type ResultPromise } from 'execa';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { ProjectReport } from '../../domain/project/project-report.js';
import type { TaskOutcome } from '../../domain/task-state.js';
import { runTaskloop, startWorkerProcess } from '../support/cli.js';
import { calcFiles } from '../support/calc-project.js';
import { makeRepo, makeTempDir } from '../support/git-repo.js';
import { uniqueId, workerProcessEnv } from './support/temporal.js';
import { git } from './support/tasks.js';
import { writeCalcTasksFile } from './support/tasks-file.js';

const LONG_TEST_MS = 240_000;

function taskloop(args: string[], cwd?: string) {
  return runTaskloop(args, { cwd, env: { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress') } });
}

/** A bare repository holding the calc project: the remote every host clones from and pushes to. */
async function makeRemote(): Promise<{ parent: string; remote: string }> {
  const source = await makeRepo(calcFiles);
  const parent = await makeTempDir();
  const remote = path.join(parent, 'calc.git');
  await execa('git', ['clone', '--bare', '--quiet', source, remote]);
  return { parent, remote };
}

/** A tasks file of `ids` on the repository at `url`, each fixing add with the same recorded coder turns. */
async function writeTasksFile(url: string, ids: string[]): Promise<{ file: string; dir: string; project: string }> {
  const project = uniqueId('url');
  return {
    ...(await writeCalcTasksFile({ repo: url, project, tasks: ids.map((id) => ({ id })), concurrency: ids.length })),
    project,
  };
}

/** Every taskloop branch on the remote with its tip's Taskloop-Run trailers (one line per commit carrying one). */
async function remoteTaskBranches(remote: string): Promise<Map<string, string[]>> {
  const refs = (await git(remote, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/taskloop/'))
    .split('\n')
    .filter(Boolean);
  const branches = new Map<string, string[]>();
  for (const ref of refs) {
    const log = await git(remote, 'log', '--format=%(trailers:key=Taskloop-Run,valueonly)', ref);
    branches.set(ref, log.split('\n').filter(Boolean));
  }
  return branches;
}

/** Checks out each branch of the remote in a fresh clone and runs the tests there: true when all pass. */
async function branchesPassTests(remote: string, branches: string[]): Promise<boolean> {
  for (const branch of branches) {
    const clone = await makeTempDir();
    await execa('git', ['clone', '--quiet', '--branch', branch, remote, clone]);
    const tests = await execa('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
      cwd: clone,
      reject: false,
    });
    if (tests.exitCode !== 0) return false;
  }
  return true;
}

async function stopAll(children: ResultPromise[]): Promise<void> {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => child.catch(() => undefined)));
}

describe('repositories by URL on hosts with no folder in common', () => {
  it(
    'a project of 6 tasks on a file:// remote, spread over two worker processes: each commit pushed once, every branch passes its tests',
    async () => {
      const { remote } = await makeRemote();
      const taskQueue = uniqueId('url-hosts');
      const envs = [await workerProcessEnv(taskQueue), await workerProcessEnv(taskQueue)];
      const workers = [
        (await startWorkerProcess(envs[0] ?? {})).child,
        (await startWorkerProcess(envs[1] ?? {})).child,
      ];
      try {
        const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
        const { file, dir, project } = await writeTasksFile(`file://${remote}`, ids);
        const scheduled = await taskloop(['schedule', file, '--task-queue', taskQueue, '--wait', '--json'], dir);
        expect(scheduled.exitCode, scheduled.all).toBe(0);
        const report = JSON.parse(scheduled.stdout) as ProjectReport;
        expect(report.tasks.map((task) => task.status)).toEqual(ids.map(() => 'COMPLETED'));

        const outcomes = await Promise.all(
          ids.map(async (id) => {
            const status = await taskloop(['status', `task-${project}-${id}`, '--json']);
            expect(status.exitCode, status.all).toBe(0);
            return (JSON.parse(status.stdout) as { outcome: TaskOutcome }).outcome;
          }),
        );
        const hosts = new Set(outcomes.flatMap((outcome) => outcome.attempts.map((attempt) => attempt.hostId)));
        expect(hosts.size).toBe(2);
        expect(outcomes.map((outcome) => outcome.commit)).toEqual(
          ids.map((id) => expect.objectContaining({ branch: `taskloop/${id}`, remote: `file://${remote}` })),
        );

        const branches = await remoteTaskBranches(remote);
        expect([...branches.keys()].sort()).toEqual(ids.map((id) => `taskloop/${id}`));
        for (const [branch, trailers] of branches)
          expect(trailers).toEqual([`task-${project}-${branch.slice('taskloop/'.length)}/1`]);
        for (const outcome of outcomes)
          expect((await git(remote, 'rev-parse', outcome.commit?.branch ?? '?')).trim()).toBe(outcome.commit?.sha);
        expect(await branchesPassTests(remote, [...branches.keys()])).toBe(true);
        const status = await taskloop(['status', `task-${project}-a`]);
        expect(status.stdout).toContain(`on taskloop/a, pushed to file://${remote}`);
      } finally {
        await stopAll(workers);
      }
    },
    LONG_TEST_MS,
  );

  it(
    'a git:// remote served by git daemon on 127.0.0.1 works the same',
    async () => {
      const { parent, remote } = await makeRemote();
      const port = await freePort();
      const daemon = execa(
        'git',
        [
          'daemon',
          '--reuseaddr',
          `--base-path=${parent}`,
          '--export-all',
          '--enable=receive-pack',
          '--listen=127.0.0.1',
          `--port=${port}`,
          parent,
        ],
        { reject: false },
      );
      const taskQueue = uniqueId('url-daemon');
      const worker = (await startWorkerProcess(await workerProcessEnv(taskQueue))).child;
      try {
        const url = `git://127.0.0.1:${port}/calc.git`;
        await waitForDaemon(url);
        const { file, dir, project } = await writeTasksFile(url, ['a']);
        const scheduled = await taskloop(['schedule', file, '--task-queue', taskQueue, '--wait', '--json'], dir);
        expect(scheduled.exitCode, scheduled.all).toBe(0);
        const status = await taskloop(['status', `task-${project}-a`, '--json']);
        const { commit } = (JSON.parse(status.stdout) as { outcome: TaskOutcome }).outcome;
        expect(commit).toMatchObject({ branch: 'taskloop/a', remote: url });
        expect(await remoteTaskBranches(remote)).toEqual(new Map([['taskloop/a', [`task-${project}-a/1`]]]));
        expect(await branchesPassTests(remote, ['taskloop/a'])).toBe(true);
      } finally {
        await stopAll([worker]);
        daemon.kill('SIGTERM');
        await daemon;
      }
    },
    LONG_TEST_MS,
  );
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForDaemon(url: string): Promise<void> {
  for (let tries = 0; tries < 50; tries += 1) {
    if ((await execa('git', ['ls-remote', url, 'HEAD'], { reject: false })).exitCode === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`git daemon did not answer at ${url}`);
}
