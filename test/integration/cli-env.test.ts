// `taskloop env build | list | clean` as a user runs them: the real binary, a real repository, the real sandbox.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os, { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTaskloop } from '../support/cli.js';
import { documentedBlock } from '../support/documented-commands.js';
import { makeRepo } from '../support/git-repo.js';
import { sampleMismatch } from '../support/sample-shape.js';
import { deadPid } from '../support/dead-pid.js';
import { spawnWorker, stopWorker, workerLogTail } from '../support/crash.js';
import { workerProcessEnv } from './support/temporal.js';

const thisFile = 'test/integration/cli-env.test.ts';

describe('taskloop env', () => {
  it('builds a repository’s environment once, lists it with its packages, reports a failed set-up, and cleans', async () => {
    const repo = await makeRepo({ 'requirements.txt': 'iniconfig\n', 'test_it.py': 'def test_it():\n    pass\n' });
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-env-cli-'));
    const env = { ...process.env, TASKLOOP_WORK_DIR: workDir, TASKLOOP_ENV_CACHE: '' };
    const run = (args: string[]) => runTaskloop(['env', ...args], { env, timeout: 300_000 });

    const first = await run(['build', repo, '--json']);
    expect(first.exitCode, first.all).toBe(0);
    const built = JSON.parse(first.stdout) as { name: string; built: boolean; dir: string };
    expect(built.built).toBe(true);
    expect(built.dir).toBe(path.join(workDir, 'environments', built.name));

    const again = await run(['build', repo, '--ref', 'main', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ name: built.name, built: false });

    const listed = await run(['list', '--json']);
    const [entry, ...others] = JSON.parse(listed.stdout) as { name: string; setup: string[]; packages: string[] }[];
    expect(others).toEqual([]);
    expect(entry?.name).toBe(built.name);
    expect(entry?.setup).toEqual(["uv pip install -r 'requirements.txt'", 'uv pip install pytest']);
    expect(entry?.packages.some((line) => line.startsWith('iniconfig=='))).toBe(true);

    const failed = await run(['build', repo, '--setup', 'echo no-such-index >&2; exit 4']);
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain('`echo no-such-index >&2; exit 4` exited 4');
    expect(failed.stderr).toContain('no-such-index');
    // environments.md's sample reason has this shape: the line and its exit code, then the end of its output.
    const documented = await documentedBlock('docs/environments.md', `sample setup-failed: checked by ${thisFile}`);
    const [firstLine = ''] = documented.split('\n');
    const shape = [firstLine.replace(/`[^`]*`/, '`…`').replace(/exited \d+/, 'exited …'), '…'].join('\n');
    const reason = failed.stderr.slice(failed.stderr.indexOf('environment set-up failed:'));
    expect(sampleMismatch(reason, shape)).toBeUndefined();

    expect((await run(['clean'])).exitCode).toBe(2);
    const cleaned = await run(['clean', built.name, '--json']);
    expect(JSON.parse(cleaned.stdout)).toEqual({ removed: [built.name] });
    expect(JSON.parse((await run(['list', '--json'])).stdout)).toEqual([]);
  });

  it('removes the staging folders killed builds left: at the next build, at env clean, and at a worker’s start', async () => {
    const repo = await makeRepo({ 'test_it.py': 'def test_it():\n    pass\n' });
    const workerEnv = await workerProcessEnv('env-staging', { TASKLOOP_ENV_CACHE: '' });
    const workDir = workerEnv.TASKLOOP_WORK_DIR ?? '';
    const cache = path.join(workDir, 'environments');
    const env = { ...process.env, TASKLOOP_WORK_DIR: workDir, TASKLOOP_ENV_CACHE: '' };
    const run = (args: string[]) => runTaskloop(['env', ...args], { env, timeout: 300_000 });
    // What an `env build` killed by SIGKILL leaves: a half-made environment in a staging folder with its builder's note.
    const plantDead = async (name: string) => {
      const dir = path.join(cache, name);
      await mkdir(path.join(dir, 'env', 'lib'), { recursive: true });
      await writeFile(path.join(dir, 'env', 'lib', 'half.py'), 'X = 1\n');
      const owner = { pid: await deadPid(), host: hostname(), startedAt: Date.now() };
      await writeFile(path.join(dir, '.staging-owner.json'), JSON.stringify(owner));
      return dir;
    };

    const first = await plantDead('.staging-repo-aaaa-11111111');
    const failed = await run(['build', repo, '--setup', 'exit 4']);
    expect(failed.exitCode, failed.all).toBe(1);
    expect(existsSync(first)).toBe(false);

    const second = await plantDead('.staging-repo-bbbb-22222222');
    const cleaned = await run(['clean', '--all', '--json']);
    expect(JSON.parse(cleaned.stdout)).toEqual({ removed: [], stagingRemoved: ['.staging-repo-bbbb-22222222'] });
    expect(existsSync(second)).toBe(false);

    const third = await plantDead('.staging-repo-cccc-33333333');
    const worker = await spawnWorker(workerEnv);
    try {
      expect(existsSync(third), await workerLogTail(worker)).toBe(false);
      expect(await workerLogTail(worker)).toContain('removed 1 environment staging folder(s) left by killed builds');
    } finally {
      await stopWorker(worker);
    }
    expect((await readdir(cache)).filter((name) => name.startsWith('.staging-'))).toEqual([]);
  });
});
