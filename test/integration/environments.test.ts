// Environments per repository on the real dev server: built once in the sandbox (egress to the outside for set-up
// only, never the host), cached by key, shown read-only to every test run. The third-party package is a wheel built
// here (offline); pytest comes from PyPI, as a user's set-up would fetch it.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import type { WorkflowHandle } from '@temporalio/client';
import { artifactDirFor } from '../../activities/artifacts.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEnvironments, environmentCacheDir } from '../../activities/environments/index.js';
import { fixTurns, makeCalcProject, turn } from '../support/calc-project.js';
import { activitiesIn } from '../support/history-activities.js';
import { buildWheel } from '../support/python-wheel.js';
import { useTestTemporal } from './support/temporal.js';
import { git, startTestTask, taskOutcome, taskSpec } from './support/tasks.js';
import type { EnvironmentSpec } from '../../domain/environment.js';

const WHEEL_DIR = 'vendor';

/** calc, whose tests also import `greetlib`, a package only the environment has. */
const calcNeedingGreetlib = {
  'calc.py': 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n',
  'tests/__init__.py': '',
  'tests/test_calc.py':
    'import greetlib\nfrom calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\n' +
    'def test_mul():\n    assert mul(2, 3) == greetlib.SIX\n',
  'requirements.txt': 'pytest\n',
};

/** The fix, checked with run_tests inside the attempt before finishing (the coder's runs use the environment too). */
const fixCheckedTurns = () => {
  const [edit, finish] = fixTurns();
  return [edit!, turn('run_tests', {}), finish!];
};

async function makeProject(files: Record<string, string> = calcNeedingGreetlib) {
  const project = await makeCalcProject({ coder: fixCheckedTurns() }, files);
  await mkdir(path.join(project.repo, WHEEL_DIR), { recursive: true });
  const wheel = await buildWheel(path.join(project.repo, WHEEL_DIR), {
    name: 'greetlib',
    version: '1.0',
    module: 'greetlib',
    source: 'SIX = 6\n',
  });
  await git(project.repo, 'add', '-A');
  await git(project.repo, 'commit', '-q', '-m', 'vendor greetlib');
  return { ...project, wheelPath: `./${WHEEL_DIR}/${wheel}` };
}

describe('environments per repository', () => {
  const t = useTestTemporal('environments');
  /** The attempt's artifact folder is per workflow run: the one run's folder. */
  const onlyEntry = async (handle: WorkflowHandle) => {
    const [entry] = await readdir(artifactDirFor(t.host.workDir, handle.workflowId, 1));
    return entry ?? 'none';
  };
  const cacheEntries = () => listEnvironments(environmentCacheDir(t.host.workDir));

  async function runTask(repo: string, scriptFile: string, environment?: EnvironmentSpec) {
    const spec = taskSpec({
      repo,
      goal: 'Fix add in calc.py',
      models: { coder: `scripted:${scriptFile}` },
      maxRetries: 0,
      ...(environment ? { environment } : {}),
    });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    return { handle, outcome: await taskOutcome(handle) };
  }

  it('a repository whose tests import a package passes with its environment, and fails clearly without', async () => {
    const project = await makeProject();
    const environment = { setup: [`uv pip install -r requirements.txt ${project.wheelPath}`] };
    const { handle, outcome } = await runTask(project.repo, project.scriptFile, environment);

    expect(outcome.status, outcome.reason).toBe('COMPLETED');
    const [attempt] = outcome.attempts;
    expect(attempt?.environment).toMatchObject({ built: true });
    // The test record names the environment the run used.
    expect(attempt?.test).toMatchObject({ outcome: 'passed', environment: { name: attempt?.environment?.name } });
    const history = (await handle.fetchHistory()).events ?? [];
    expect(activitiesIn(history).map(({ type }) => type)).toContain('prepareEnvironment');
    // The coder's own run_tests ran in the environment too: both tests passed there, greetlib imported.
    const coderRun = await readFile(
      path.join(
        artifactDirFor(t.host.workDir, handle.workflowId, 1),
        await onlyEntry(handle),
        'coder-tests',
        'run-1',
        'test-stdout.log',
      ),
      'utf8',
    );
    expect(coderRun).toMatch(/2 passed/);

    const without = await runTask(project.repo, project.scriptFile);
    expect(without.outcome.status).toBe('FAILED');
    expect(without.outcome.recommendation).toBe('environment_problem');
    expect(without.outcome.attempts[0]?.failure?.cause?.kind).toBe('MissingThirdPartyModule');
    expect(without.outcome.reason).toContain('greetlib');
  });

  it('a missing dependency at test time in a built environment is read as today: a missing third-party module', async () => {
    const project = await makeProject();
    const { outcome } = await runTask(project.repo, project.scriptFile, {
      setup: ['uv pip install -r requirements.txt'],
    });
    expect(outcome.status).toBe('FAILED');
    expect(outcome.attempts[0]?.environment).toBeDefined();
    expect(outcome.attempts[0]?.failure?.cause?.kind).toBe('MissingThirdPartyModule');
  });

  it('a second task on the same repository reuses the environment; a change to a dependency file rebuilds it', async () => {
    const project = await makeProject();
    const environment = { setup: [`uv pip install -r requirements.txt ${project.wheelPath}`] };
    const before = cacheEntries().length;

    const first = await runTask(project.repo, project.scriptFile, environment);
    const second = await runTask(project.repo, project.scriptFile, environment);
    expect(first.outcome.status).toBe('COMPLETED');
    expect(second.outcome.status).toBe('COMPLETED');
    expect(first.outcome.attempts[0]?.environment).toMatchObject({ built: true });
    expect(second.outcome.attempts[0]?.environment).toMatchObject({
      built: false,
      name: first.outcome.attempts[0]?.environment?.name,
    });
    // The build ran once: one entry more in the cache.
    expect(cacheEntries().length).toBe(before + 1);

    // A new base commit with the same dependency files keys the same environment...
    await git(project.repo, 'commit', '-q', '--allow-empty', '-m', 'unrelated');
    const third = await runTask(project.repo, project.scriptFile, environment);
    expect(third.outcome.attempts[0]?.environment).toMatchObject({ built: false });

    // ...a changed dependency file a new one.
    await writeFile(path.join(project.repo, 'requirements.txt'), 'pytest\niniconfig\n');
    await git(project.repo, 'commit', '-q', '-am', 'add iniconfig');
    const fourth = await runTask(project.repo, project.scriptFile, environment);
    expect(fourth.outcome.status).toBe('COMPLETED');
    expect(fourth.outcome.attempts[0]?.environment).toMatchObject({ built: true });
    expect(fourth.outcome.attempts[0]?.environment?.name).not.toBe(first.outcome.attempts[0]?.environment?.name);
    expect(cacheEntries().length).toBe(before + 2);
    const manifest = cacheEntries().find((entry) => entry.name === fourth.outcome.attempts[0]?.environment?.name);
    expect(manifest?.packages.some((line) => line.startsWith('iniconfig=='))).toBe(true);
  });

  it('a set-up that fails is an environment problem naming the command and its output, and no coder runs', async () => {
    const project = await makeProject();
    const { handle, outcome } = await runTask(project.repo, project.scriptFile, {
      setup: ['echo "index says no: broken-dependency" >&2; exit 3'],
    });
    expect(outcome.status).toBe('FAILED');
    expect(outcome.recommendation).toBe('environment_problem');
    const failure = outcome.attempts[0]?.failure;
    expect(failure).toMatchObject({
      node: 'claim',
      failureClass: 'environment_problem',
      cause: { kind: 'EnvironmentSetupFailed' },
    });
    expect(failure?.reason).toContain('exited 3');
    expect(failure?.reason).toContain('broken-dependency');
    const history = (await handle.fetchHistory()).events ?? [];
    expect(activitiesIn(history).map(({ type }) => type)).not.toContain('runCoder');
    expect(outcome.attempts[0]?.coder).toBeUndefined();
  });

  describe('network', () => {
    let server: Server;
    const hits: string[] = [];
    let port = 0;
    beforeAll(async () => {
      server = createServer((request, response) => {
        hits.push(request.url ?? '');
        response.end('ok\n');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("neither set-up (egress only) nor the test run (no network) reaches the host's loopback server", async () => {
      // Set-up goes on only if the fetch fails (`!`): a set-up that reached the host would fail the task.
      const fetch = (what: string) =>
        `! python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:${port}/${what}', timeout=10)"`;
      const files = {
        ...calcNeedingGreetlib,
        'tests/test_offline.py':
          'import urllib.request\n\n\ndef test_no_network():\n    try:\n' +
          `        urllib.request.urlopen('http://127.0.0.1:${port}/test', timeout=5)\n` +
          '    except OSError:\n        return\n    raise AssertionError("the test run reached the network")\n',
      };
      const project = await makeProject(files);
      const { outcome } = await runTask(project.repo, project.scriptFile, {
        setup: [fetch('setup'), `uv pip install -r requirements.txt ${project.wheelPath}`],
      });
      expect(outcome.status, outcome.reason).toBe('COMPLETED');
      expect(outcome.attempts[0]?.test?.counts).toMatchObject({ passed: 3, failed: 0 });
      expect(hits).toEqual([]);
    });
  });
});
