// runProcessTree: capped output files, the group killed on overflow, timeout and cancel,
// background leftovers killed when the leader exits, a missing program reported, and the group id handed over.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runProcessTree } from '../../../../activities/sandbox/process-tree.js';
import { makeTempDir, removeDirs } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

/** True while a process of the group runs (a killed one waiting to be reaped, state Z, has ended). */
async function groupAlive(pgid: number): Promise<boolean> {
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    // After the command name: state, ppid, pgrp.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') return true;
  }
  return false;
}

/**
 * True once no process of the group runs, within 2 s: SIGKILL is sent to the group before the run returns, but a
 * killed process ends only when the kernel next schedules it (on a loaded machine, after the check; a CI run saw it).
 */
async function groupGone(pgid: number): Promise<boolean> {
  const deadline = Date.now() + 2_000;
  while (await groupAlive(pgid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

async function run(
  script: string,
  options: { timeoutMs?: number; maxOutputBytes?: number; signal?: AbortSignal } = {},
) {
  const dir = await makeTempDir();
  dirs.push(dir);
  const groups: (number | undefined)[] = [];
  const result = await runProcessTree({
    argv: ['sh', '-c', script],
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    timeoutMs: options.timeoutMs ?? 10_000,
    stdoutFile: path.join(dir, 'stdout.log'),
    stderrFile: path.join(dir, 'stderr.log'),
    maxOutputBytes: options.maxOutputBytes ?? 1024 * 1024,
    signal: options.signal,
    onGroup: async (pgid) => void groups.push(pgid),
  });
  const read = (name: string) => readFile(path.join(dir, name), 'utf8');
  return { result, groups, stdout: await read('stdout.log'), stderr: await read('stderr.log'), dir };
}

describe('runProcessTree', () => {
  it('streams stdout and stderr to their files, reports the exit, and hands over then clears the group id', async () => {
    const { result, groups, stdout, stderr } = await run('echo out; echo err >&2; exit 4');
    expect(result).toMatchObject({ exitCode: 4, timedOut: false, cancelled: false, outputTooLarge: false });
    expect([stdout, stderr]).toEqual(['out\n', 'err\n']);
    expect(result.stdoutBytes).toBe(4);
    expect(groups).toHaveLength(2);
    expect(groups[0]).toBeGreaterThan(1);
    expect(groups[1]).toBeUndefined();
  });

  it('keeps at most the cap of a flood and kills the group', async () => {
    const { result, dir } = await run('yes flood', { maxOutputBytes: 64 * 1024 });
    expect(result.outputTooLarge).toBe(true);
    expect(result.signal).toBe('SIGKILL');
    expect((await stat(path.join(dir, 'stdout.log'))).size).toBe(64 * 1024);
  });

  it('kills the whole group on a timeout, background children included', async () => {
    const { result, groups } = await run('sleep 30 & sleep 30', { timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(await groupGone(groups[0] as number)).toBe(true);
  });

  it('kills the group on a cancel', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const { result, groups } = await run('sleep 30', { signal: controller.signal });
    expect(result.cancelled).toBe(true);
    expect(await groupGone(groups[0] as number)).toBe(true);
  });

  it('kills what the command left running in its group when it exits', async () => {
    const { result, groups } = await run('sleep 30 >/dev/null 2>&1 & echo started');
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(await groupGone(groups[0] as number)).toBe(true);
  });

  it('reports a program that does not exist as a spawn error, not a crash', async () => {
    const dir = await makeTempDir();
    dirs.push(dir);
    const result = await runProcessTree({
      argv: ['/no/such/program'],
      cwd: dir,
      env: {},
      timeoutMs: 5_000,
      stdoutFile: path.join(dir, 'stdout.log'),
      stderrFile: path.join(dir, 'stderr.log'),
      maxOutputBytes: 1024,
    });
    expect(result.spawnError).toBe('ENOENT');
    expect(result.exitCode).toBeNull();
  });
});
