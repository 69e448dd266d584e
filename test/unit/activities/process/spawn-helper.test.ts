import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShortCommand, spawnHelperPid } from '../../../../activities/process/spawn-helper.js';
import { projectRoot } from '../../../../platform/paths.js';

/** Running (a zombie waiting to be reaped has ended: state Z in /proc). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; Date.now() < end;) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe('the spawn helper', () => {
  it('returns exit code, stdout and stderr apart, from a helper process (not this one)', async () => {
    const result = await runShortCommand({
      command: 'sh',
      args: ['-c', 'echo out; echo err >&2; echo $PPID; exit 3'],
      cwd: projectRoot,
    });
    expect(result.code).toBe(3);
    expect(result.stderr.toString()).toBe('err\n');
    const [out, parent] = result.stdout.toString().trim().split('\n');
    expect(out).toBe('out');
    expect(Number(parent)).toBe(spawnHelperPid());
    expect(Number(parent)).not.toBe(process.pid);
  });

  it('runs in the given folder with exactly the given environment, else with the environment at the call', async () => {
    const given = await runShortCommand({
      command: 'sh',
      args: ['-c', 'pwd; echo "${ONLY:-unset} ${HOME:-nohome}"'],
      cwd: '/tmp',
      env: { ONLY: 'this', PATH: process.env.PATH ?? '' },
    });
    expect(given.stdout.toString()).toBe('/tmp\nthis nohome\n');

    process.env.TASKLOOP_SPAWN_HELPER_TEST = 'set after the helper started';
    try {
      const inherited = await runShortCommand({
        command: 'sh',
        args: ['-c', 'echo "$TASKLOOP_SPAWN_HELPER_TEST"'],
        cwd: '/tmp',
      });
      expect(inherited.stdout.toString()).toBe('set after the helper started\n');
    } finally {
      delete process.env.TASKLOOP_SPAWN_HELPER_TEST;
    }
  });

  it('keeps binary output intact and runs calls side by side', async () => {
    const [bytes, ...others] = await Promise.all([
      runShortCommand({ command: 'printf', args: ['\\000\\377\\001'], cwd: '/tmp' }),
      ...Array.from({ length: 8 }, (_, index) =>
        runShortCommand({ command: 'echo', args: [String(index)], cwd: '/tmp' }),
      ),
    ]);
    expect([...(bytes?.stdout ?? [])]).toEqual([0, 255, 1]);
    expect(others.map((result) => result.stdout.toString().trim())).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
  });

  it('rejects a command that does not exist with the error code, and goes on serving', async () => {
    await expect(runShortCommand({ command: 'no-such-command-taskloop', args: [], cwd: '/tmp' })).rejects.toMatchObject(
      { code: 'ENOENT' },
    );
    expect((await runShortCommand({ command: 'true', args: [], cwd: '/tmp' })).code).toBe(0);
  });

  it('fails the calls a dying helper was running, and starts a new helper for the next call', async () => {
    await runShortCommand({ command: 'true', args: [], cwd: '/tmp' });
    const first = spawnHelperPid() as number;
    const running = runShortCommand({ command: 'sleep', args: ['5'], cwd: '/tmp' });
    process.kill(first, 'SIGKILL');
    await expect(running).rejects.toThrow(/spawn helper exited/);
    expect((await runShortCommand({ command: 'true', args: [], cwd: '/tmp' })).code).toBe(0);
    expect(spawnHelperPid()).not.toBe(first);
  });

  it('exits, killing what it runs, when the process that started it is killed', async () => {
    // A worker stand-in: starts the helper with a long command running, prints the helper's pid, waits.
    const script = [
      `import { runShortCommand, spawnHelperPid } from ${JSON.stringify(path.join(projectRoot, 'activities/process/spawn-helper.ts'))};`,
      `void runShortCommand({ command: 'sleep', args: ['31.5'], cwd: '/tmp' });`,
      `setTimeout(() => console.log(spawnHelperPid()), 300);`,
      `setInterval(() => undefined, 1000);`,
    ].join('\n');
    const worker = execa(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: projectRoot,
      reject: false,
    });
    const helperPid = await new Promise<number>((resolve) =>
      worker.stdout?.on('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    expect(alive(helperPid)).toBe(true);
    worker.kill('SIGKILL');
    await worker;
    expect(await waitUntil(() => !alive(helperPid), 5_000)).toBe(true);
    const left = await execa('pgrep', ['-f', '^sleep 31.5$'], { reject: false });
    expect(left.stdout).toBe('');
  });
});
