// Issue 11, item 1: a test process never outlives its activity. Without a sandbox the process group is recorded
// on disk, so a worker killed with SIGKILL mid-test leaves nothing behind once it restarts and the run is retried;
// in bwrap mode the PID namespace and --die-with-parent end it with the worker.
import { readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeCalcProject, turn } from '../../support/calc-project.js';
import { crashAndRestartWorker, startWorkerProcess } from '../../support/cli.js';
import { processesWith, waitFor } from '../../unit/activities/tests/python-project.js';
import { uniqueId, useTestClient, workerProcessEnv } from '../support/temporal.js';
import { startTestTask, taskSpec } from '../support/tasks.js';

/** Host pids of live processes whose working folder is inside `dir`. */
function processesIn(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readlinkSync(`/proc/${entry}/cwd`).startsWith(dir) && processesWith('').includes(Number(entry)))
        pids.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}

describe('test processes never outlive their activity', () => {
  const t = useTestClient();

  it.each(['none', 'bwrap'])(
    '%s mode: a SIGKILLed worker leaves no pytest once the run is retried; the retry never overlaps it; cancel kills the rest',
    async (mode) => {
      const taskQueue = uniqueId('orphans');
      const env = await workerProcessEnv(taskQueue, { TASKLOOP_SANDBOX: mode });
      const worktrees = path.join(env.TASKLOOP_WORK_DIR ?? '', 'worktrees');
      const marker = `${Math.floor(Math.random() * 1e6) + 1000}.${Math.floor(Math.random() * 1e6)}`;
      const hang = `import subprocess, time\n\ndef test_hang():\n    subprocess.Popen(['sleep', '${marker}'])\n    time.sleep(600)\n`;
      const project = await makeCalcProject({
        coder: [turn('write_file', { path: 'tests/test_hang.py', content: hang }), turn('finish', { summary: 'hang' })],
      });
      const spec = taskSpec({
        repo: project.repo,
        goal: 'hang in the tests',
        models: { coder: `scripted:${project.scriptFile}` },
        allowTestEdits: true,
        maxRetries: 0,
      });

      let { child } = await startWorkerProcess(env);
      try {
        const handle = await startTestTask(t.client, taskQueue, spec);
        expect(await waitFor(() => processesWith(marker).length > 0, 60_000)).toBe(true);
        const first = processesIn(worktrees);
        expect(first.length).toBeGreaterThanOrEqual(2); // pytest and its sleeping child

        ({ child } = await crashAndRestartWorker(child, env));
        // The retried activity (after the heartbeat timeout) starts a new group; the old one must be gone by then.
        expect(await waitFor(() => processesWith(marker).some((pid) => !first.includes(pid)), 90_000)).toBe(true);
        expect(first.filter((pid) => processesWith('').includes(pid))).toEqual([]);
        expect(processesIn(worktrees).filter((pid) => first.includes(pid))).toEqual([]);

        await handle.cancel();
        await handle.result().catch(() => undefined);
        expect(await waitFor(() => processesIn(worktrees).length === 0, 30_000)).toBe(true);
        expect(processesWith(marker)).toEqual([]);
      } finally {
        child.kill('SIGTERM');
        await child.catch(() => undefined);
      }
    },
    240_000,
  );
});
