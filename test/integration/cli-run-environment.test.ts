// `taskloop run --environment auto|NAME` and the config file's default, through the real bin on the test server: what
// the task is started with (read back from its history; no worker needed), and an unknown name refused before
// anything starts.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readRunInput } from '../../client/tasks/run-input.js';
import { runTaskloop } from '../support/cli.js';
import { makeCalcProject } from '../support/calc-project.js';
import { connectTestClient, uniqueId } from './support/temporal.js';

let dir: string;
let cacheDir: string;
let env: NodeJS.ProcessEnv;
let client: Awaited<ReturnType<typeof connectTestClient>>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-run-env-'));
  cacheDir = path.join(dir, 'environments');
  env = {
    ...process.env,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TASKLOOP_TASK_QUEUE: uniqueId('run-env'),
    TASKLOOP_ENV_CACHE: cacheDir,
  };
  client = await connectTestClient();
});
afterAll(() => client.connection.close());

/** Starts a task with these flags from `cwd` and returns the environment it was started with. */
async function startedEnvironment(flags: string[], cwd = dir): Promise<unknown> {
  const project = await makeCalcProject({});
  const args = [
    'run',
    '--repo',
    project.repo,
    '--goal',
    `fix add ${uniqueId('g')}`,
    '--model',
    `scripted:${project.scriptFile}`,
  ];
  const result = await runTaskloop([...args, ...flags, '--json'], { env, cwd });
  expect(result.exitCode, result.all).toBe(0);
  const { workflowId } = JSON.parse(result.stdout) as { workflowId: string };
  const { runId } = await client.client.workflow.getHandle(workflowId).describe();
  await client.client.workflow.getHandle(workflowId).terminate('test over');
  return (await readRunInput(client.client, { workflowId, runId })).spec.environment;
}

describe('taskloop run --environment', () => {
  it('auto asks for the repository environment; none leaves the worker Python', async () => {
    expect(await startedEnvironment(['--environment', 'auto'])).toBe('auto');
    expect(await startedEnvironment([])).toBeUndefined();
  });

  it('takes its default from taskloop.config.json, and the flag wins over it', async () => {
    const folder = await mkdtemp(path.join(dir, 'configured-'));
    await writeFile(path.join(folder, 'taskloop.config.json'), JSON.stringify({ environment: 'auto' }));
    expect(await startedEnvironment([], folder)).toBe('auto');
    const other = await mkdtemp(path.join(dir, 'overridden-'));
    await writeFile(path.join(other, 'taskloop.config.json'), JSON.stringify({ environment: 'no-such-environment' }));
    expect(await startedEnvironment(['--environment', 'auto'], other)).toBe('auto');
  });

  it('a name that taskloop env list shows starts the task with that environment set-up, files and interpreter', async () => {
    const project = await makeCalcProject({});
    const name = `calc-${uniqueId('e')}`;
    await mkdir(path.join(cacheDir, name), { recursive: true });
    const manifest = {
      key: 'k',
      name,
      repo: project.repo,
      baseSha: 'abc',
      setup: ["uv pip install -r 'requirements.txt'", 'uv pip install pytest'],
      files: { 'requirements.txt': 'absent' },
      interpreter: { path: '/usr/bin/python3', version: '3.12.0' },
      installer: 'uv',
      packages: [],
      setupMs: 1,
      builtAt: '2026-01-01T00:00:00Z',
      hostId: 'h',
    };
    await writeFile(path.join(cacheDir, name, 'manifest.json'), JSON.stringify(manifest));
    const args = ['run', '--repo', project.repo, '--goal', 'fix add', '--model', `scripted:${project.scriptFile}`];
    const result = await runTaskloop([...args, '--environment', name, '--json'], { env, cwd: dir });
    expect(result.exitCode, result.all).toBe(0);
    const { workflowId } = JSON.parse(result.stdout) as { workflowId: string };
    const handle = client.client.workflow.getHandle(workflowId);
    const { runId } = await handle.describe();
    await handle.terminate('test over');
    expect((await readRunInput(client.client, { workflowId, runId })).spec.environment).toEqual({
      setup: manifest.setup,
      python: '/usr/bin/python3',
      files: ['requirements.txt'],
    });

    // Another repository: refused, naming both and the fix.
    const other = await makeCalcProject({});
    const refused = await runTaskloop(
      [
        'run',
        '--repo',
        other.repo,
        '--goal',
        'fix add',
        '--model',
        `scripted:${project.scriptFile}`,
        '--environment',
        name,
      ],
      { env, cwd: dir },
    );
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr.trim()).toBe(
      `taskloop run: --environment (environment): ${name} was built for ${project.repo}, not ${other.repo}; pass auto, or build one for this repository with taskloop env build ${other.repo}`,
    );
  });

  it('an unknown name is refused before anything starts, naming auto and taskloop env list', async () => {
    const project = await makeCalcProject({});
    const result = await runTaskloop(
      [
        'run',
        '--repo',
        project.repo,
        '--goal',
        'fix add',
        '--model',
        `scripted:${project.scriptFile}`,
        '--environment',
        'nope',
      ],
      { env, cwd: dir },
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toMatch(
      /^taskloop run: --environment \(environment\): no environment "nope" on this machine \(.*\); pass auto to build one from the repository's dependency files, or a name that taskloop env list shows/,
    );
  });
});
