// The gate of a held run (activities/sandbox/gate.ts): the sandbox starts at once, its command only on `go`; a
// closed gate kills the run unstarted; nothing but `go` opens it; the command never sees the gate's pipe; and a held
// run's timeout, heartbeat and process record count from the opening. Through the real spawn helper and, in the worker's mode, real bubblewrap.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGate, gatedArgs } from '../../../../activities/sandbox/gate.js';
import { runProcessTree } from '../../../../activities/sandbox/process-tree.js';
import { resolveWorkerSandbox, sandboxPolicyFor } from '../../../../activities/sandbox/index.js';
import { runSandboxed } from '../../../../activities/sandbox/run-sandboxed.js';
import { makeTempDir, removeDirs } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function tempDir(): Promise<string> {
  const dir = await makeTempDir();
  dirs.push(dir);
  return dir;
}

/** The gate's shell with fd 3 fed `input` (then closed): its exit, and whether the command ran. */
async function throughGate(input: string): Promise<{ code: number | null; ran: boolean }> {
  const dir = await tempDir();
  const marker = path.join(dir, 'ran');
  const [file = '', ...args] = gatedArgs(['sh', '-c', `touch ${marker}`]);
  const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  const gate = child.stdio[3] as NodeJS.WritableStream;
  gate.end(input);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, ran: existsSync(marker) };
}

describe('the gate of a held run', () => {
  it('execs the command on go, and on anything else (or nothing: its writer died) exits 1 without running it', async () => {
    expect(await throughGate('go\n')).toEqual({ code: 0, ran: true });
    expect(await throughGate('')).toEqual({ code: 1, ran: false });
    expect(await throughGate('no\n')).toEqual({ code: 1, ran: false });
    expect(await throughGate('gone\n')).toEqual({ code: 1, ran: false });
  });

  it('starts the command only when the gate opens, counting the timeout from then', async () => {
    const dir = await tempDir();
    const marker = path.join(dir, 'ran');
    const gate = createGate();
    const groups: (number | undefined)[] = [];
    let beats = 0;
    const running = runProcessTree({
      onGroup: async (pgid) => void groups.push(pgid),
      // A held run is not running yet: no heartbeat (the coder activity beats its own details meanwhile).
      heartbeat: () => (beats += 1),
      heartbeatIntervalMs: 200,
      argv: gatedArgs(['sh', '-c', `touch ${marker}; echo done`]),
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      // Shorter than the hold below: a clock started at the spawn would kill the run before it opened.
      timeoutMs: 1_000,
      stdoutFile: path.join(dir, 'stdout.log'),
      stderrFile: path.join(dir, 'stderr.log'),
      maxOutputBytes: 1024,
      gate: gate.decided,
    });
    await sleep(1_500);
    expect(existsSync(marker)).toBe(false);
    expect(groups).toEqual([]); // not recorded while held
    expect(beats).toBe(0);
    const openedAt = Date.now();
    gate.decide(true);
    const result = await running;
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false });
    expect(result.discarded).toBeUndefined();
    // Counted from the opening, so never longer than the time since it (from the spawn it would hold the 1.5 s).
    expect(result.durationMs).toBeLessThanOrEqual(Date.now() - openedAt);
    expect(await readFile(path.join(dir, 'stdout.log'), 'utf8')).toBe('done\n');
    // Recorded at the opening (before the command could run), cleared at the end.
    expect(groups).toEqual([expect.any(Number), undefined]);
  });

  it('kills a run whose gate closes, without ever running its command', async () => {
    const dir = await tempDir();
    const marker = path.join(dir, 'ran');
    const gate = createGate();
    const groups: (number | undefined)[] = [];
    const running = runProcessTree({
      argv: gatedArgs(['sh', '-c', `touch ${marker}`]),
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeoutMs: 10_000,
      stdoutFile: path.join(dir, 'stdout.log'),
      stderrFile: path.join(dir, 'stderr.log'),
      maxOutputBytes: 1024,
      gate: gate.decided,
      onGroup: async (pgid) => void groups.push(pgid),
    });
    await sleep(200);
    gate.decide(false);
    const result = await running;
    expect(result).toMatchObject({ discarded: true, signal: 'SIGKILL', timedOut: false });
    expect(existsSync(marker)).toBe(false);
    // Recorded only when its gate opens: one never opened was never recorded, nor is another run's record cleared.
    expect(groups).toEqual([]);
  });

  it('passes the gate through the sandbox of the worker mode, and the command does not inherit its pipe', async () => {
    const worktree = await tempDir();
    const logDir = await tempDir();
    const gate = createGate();
    const running = runSandboxed({
      // fd 3 of the test process: closed, or the gate's pipe leaked into it.
      argv: [
        'python3',
        '-c',
        'import os\ntry:\n    os.fstat(3)\n    print("fd 3 open")\nexcept OSError:\n    print("fd 3 closed")',
      ],
      worktree,
      testEnv: {},
      policy: sandboxPolicyFor(resolveWorkerSandbox({ workDir: worktree })),
      timeoutMs: 30_000,
      logDir,
      gate: gate.decided,
    });
    await sleep(300);
    gate.decide(true);
    const run = await running;
    expect(await readFile(run.stdoutFile, 'utf8')).toBe('fd 3 closed\n');
    expect(run.exitCode).toBe(0);
  });
});
