// The attack corpus through real tasks on the real dev server: in bwrap mode every attack is refused or bounded,
// the worker survives, the host is unchanged and the record names the cause; in none mode some get through.
import { createServer, type Server } from 'node:net';
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TaskOutcome } from '../../../domain/task-state.js';
import { makeCalcProject } from '../../support/calc-project.js';
import { processesWith } from '../../unit/activities/tests/python-project.js';
import { useTestTemporal } from '../support/temporal.js';
import { startTestTask, taskloopCommits, taskSpec, taskOutcome } from '../support/tasks.js';
import { corpusTurns, targetEnv, type Targets } from './corpus-files.js';

const SECRET_PREFIX = 'canary-worker-secret-';
const originalHome = process.env.HOME;
const home = await mkdtemp(path.join(os.tmpdir(), 'taskloop-home-'));
let listener: Server;
let listeningPort = 0;

// Before the workers start: they read HOME (hidden from runs) and hold a secret in their environment.
beforeAll(async () => {
  await mkdir(path.join(home, '.ssh'), { recursive: true });
  await writeFile(path.join(home, '.ssh', 'id_rsa'), 'CANARY PRIVATE KEY\n');
  process.env.HOME = home;
  process.env.CORPUS_WORKER_API_TOKEN = `${SECRET_PREFIX}${Math.random().toString(36).slice(2)}`;
  listener = createServer((socket) => socket.on('error', () => undefined).end('hello\n'));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listeningPort = (listener.address() as { port: number }).port;
});
afterAll(async () => {
  process.env.HOME = originalHome;
  delete process.env.CORPUS_WORKER_API_TOKEN;
  await new Promise((resolve) => listener.close(resolve));
});

type CorpusCase = keyof typeof corpusTurns;

describe('the attack corpus, run as real tasks', () => {
  const t = useTestTemporal('sandbox-corpus');

  async function runCase(name: CorpusCase, options: { sandbox?: 'none'; extra?: Record<string, unknown> } = {}) {
    const otherWorktree = path.join(t.host.workDir, 'worktrees', `other-${name}-${options.sandbox ?? 'bwrap'}`);
    await mkdir(otherWorktree, { recursive: true });
    await writeFile(path.join(otherWorktree, 'calc.py'), 'untouched\n');
    const marker = `${Math.floor(Math.random() * 1e6) + 1000}.${Math.floor(Math.random() * 1e6)}`;
    const targets: Targets = {
      home,
      repo: '',
      otherWorktree,
      artifactsDir: path.join(t.host.workDir, 'artifacts'),
      temporalPort: inject('temporalAddress').split(':').pop() ?? '7233',
      listeningPort: String(listeningPort),
      secret: SECRET_PREFIX,
      marker,
    };
    const project = await makeCalcProject({ coder: corpusTurns[name](targets) });
    targets.repo = project.repo;
    if (name === 'hook') targets.marker = path.join(project.dir, 'hook-ran.txt');
    const before = await snapshot(project.repo, targets);
    const spec = taskSpec({
      repo: project.repo,
      goal: `attack corpus: ${name}`,
      models: { coder: `scripted:${project.scriptFile}` },
      testEnv: targetEnv(targets),
      allowTestEdits: name !== 'conftest',
      maxRetries: 0,
      envRetryLimit: 0,
      testTimeoutMs: name === 'sleep' ? 3_000 : 60_000,
      limits: { memoryMb: 512, processes: 64, fileSizeMb: 100, outputMb: 16 },
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      ...options.extra,
    });
    const outcome: TaskOutcome = await taskOutcome(await startTestTask(t.client, t.host.taskQueue, spec));
    return {
      outcome,
      before,
      after: await snapshot(project.repo, targets),
      targets,
      project,
      branch: `taskloop/${spec.id}`,
    };
  }

  it('blocks or bounds every attack in bwrap mode, names the cause, and leaves the host unchanged', async () => {
    const [escape, resources, flood, sleep, hook, conftest] = await Promise.all(
      (['escape', 'resources', 'flood', 'sleep', 'hook', 'conftest'] as const).map((name) => runCase(name)),
    );

    const escapeTest = escape.outcome.attempts[0]?.test;
    expect(escapeTest?.sandbox).toEqual({ mode: 'bwrap', network: false });
    const attacks = escapeTest?.cases.filter((c) => c.id.startsWith('tests/test_escape.py::')) ?? [];
    expect(attacks).toHaveLength(11);
    // Starting a background process is allowed; that none is left after the run is checked by its marker below.
    expect(attacks.filter((c) => c.outcome === 'passed').map((c) => c.id)).toEqual([
      'tests/test_escape.py::test_leave_background_process',
    ]);
    expect(escapeTest?.cause?.kind).toBe('SandboxDenied');
    expect(escapeTest?.cause?.message).toContain('sandbox: write outside the worktree refused');
    expect(escapeTest?.cause?.message).toContain('sandbox: network access refused');
    expect(escape.after).toEqual(escape.before);
    expect(processesWith(escape.targets.marker)).toEqual([]);

    const resourceTest = resources.outcome.attempts[0]?.test;
    const bounded = resourceTest?.cases.filter((c) => c.id.startsWith('tests/test_resources.py::')) ?? [];
    expect(bounded).toHaveLength(3);
    expect(bounded.filter((c) => c.outcome === 'passed').map((c) => c.id)).toEqual([]);
    expect(resourceTest?.cause).toMatchObject({ kind: 'ResourceLimit' });
    for (const limit of ['memory', 'processes', 'file size']) expect(resourceTest?.cause?.message).toContain(limit);

    expect(flood.outcome.attempts[0]?.test?.cause?.kind).toBe('OutputTooLarge');
    expect(sleep.outcome.attempts[0]?.test?.cause?.kind).toBe('TestTimeout');

    expect(hook.outcome.status).toBe('COMPLETED');
    expect(await taskloopCommits(hook.project.repo, hook.branch)).toHaveLength(1);
    expect(existsSync(hook.targets.marker)).toBe(false);
    expect(hook.after).toEqual(hook.before);

    expectRefusedConftest(conftest.outcome);
    expect(existsSync(path.join(home, 'conftest-ran.txt'))).toBe(false);
    expect(await readFile(path.join(home, '.ssh', 'id_rsa'), 'utf8')).toBe('CANARY PRIVATE KEY\n');
  });

  it('lets some attacks through in none mode, yet a planted hook never runs and a refused conftest never executes', async () => {
    const [escape, hook, conftest] = await Promise.all(
      (['escape', 'hook', 'conftest'] as const).map((name) => runCase(name, { sandbox: 'none' })),
    );

    const escapeTest = escape.outcome.attempts[0]?.test;
    expect(escapeTest?.sandbox?.mode).toBe('none');
    const attacks = escapeTest?.cases.filter((c) => c.id.startsWith('tests/test_escape.py::')) ?? [];
    const through = attacks.filter((c) => c.outcome === 'passed').map((c) => c.id.split('::')[1]);
    expect(through).toContain('test_write_home');
    expect(existsSync(path.join(home, 'pwned.txt'))).toBe(true);

    expect(hook.outcome.status).toBe('COMPLETED');
    expect(existsSync(path.join(hook.project.repo, '.git', 'hooks', 'post-commit'))).toBe(true);
    expect(existsSync(hook.targets.marker)).toBe(false);
    expect(hook.after.gitConfig).toBe(hook.before.gitConfig);

    expectRefusedConftest(conftest.outcome);
    expect(existsSync(path.join(home, 'conftest-ran.txt'))).toBe(false);
    expect(processesWith(escape.targets.marker)).toEqual([]);
    const escaped = through.filter((name) => name !== 'test_leave_background_process'); // that one was killed after the run
    console.log(`none mode: ${escaped.length} of ${attacks.length} escape attacks got through: ${escaped.join(', ')}`);
  });
});

function expectRefusedConftest(outcome: TaskOutcome): void {
  const attempt = outcome.attempts[0];
  expect(attempt?.failure?.node).toBe('test');
  expect(attempt?.test?.refused?.map((finding) => finding.rule)).toContain('test_file_edited');
  expect(attempt?.test?.durationMs).toBe(0);
}

/** What the attacks would change on the host. */
async function snapshot(repo: string, targets: Targets) {
  const read = (file: string) => readFile(file, 'utf8').catch(() => undefined);
  return {
    gitConfig: await read(path.join(repo, '.git', 'config')),
    hooks: (await readdir(path.join(repo, '.git', 'hooks')).catch(() => [])).sort(),
    homeFiles: (await readdir(home)).filter((name) => name !== 'conftest-ran.txt').sort(),
    otherWorktree: await read(path.join(targets.otherWorktree, 'calc.py')),
    artifactsPwned: existsSync(path.join(targets.artifactsDir, 'pwned.txt')),
  };
}
