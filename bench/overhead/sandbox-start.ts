// What the test sandbox itself costs per test run, for the overhead table: `true` run the way the test node runs its
// tests (runSandboxed: the spawn helper, a pids cgroup, the resource limits, bubblewrap), against the same `true`
// with the sandbox off (helper, cgroup and limits only). The Temporal floor runs its tests unsandboxed, so the
// difference is part of what taskloop adds over the floor, and no Temporal setting can take it back.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { resolveWorkerSandbox, runSandboxed, sandboxPolicyFor } from '../../activities/sandbox/index.js';
import type { SandboxMode } from '../../activities/sandbox/policy.js';
import { median } from '../lib/stats.js';

export interface SandboxStart {
  /** Median wall time of one `true` in bubblewrap, in ms. */
  bwrapMs: number;
  /** Median wall time of one `true` with the sandbox off, in ms. */
  unsandboxedMs: number;
  runs: number;
}

/** `runs` interleaved pairs (bubblewrap, unsandboxed) after one untimed pair; every run must exit 0. */
export async function timeSandboxStart(runs: number): Promise<SandboxStart> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'taskloop-bench-sandbox-'));
  const worktree = path.join(folder, 'worktree');
  const workDir = path.join(folder, 'work');
  await Promise.all([mkdir(worktree), mkdir(workDir)]);
  const worker = resolveWorkerSandbox({ workDir });
  const once = async (mode: SandboxMode, index: number): Promise<number> => {
    const started = performance.now();
    const run = await runSandboxed({
      argv: ['true'],
      worktree,
      testEnv: {},
      policy: sandboxPolicyFor({ ...worker, mode }),
      timeoutMs: 30_000,
      logDir: path.join(folder, 'logs', `${mode}-${index}`),
    });
    const elapsed = performance.now() - started;
    if (run.exitCode !== 0) {
      const stderr = await readFile(run.stderrFile, 'utf8').catch(() => '');
      throw new Error(`sandbox start-up bench: \`true\` (${mode}) exited ${String(run.exitCode)}: ${stderr.trim()}`);
    }
    return elapsed;
  };
  try {
    await once('bwrap', 0);
    await once('none', 0);
    const bwrap: number[] = [];
    const none: number[] = [];
    for (let index = 1; index <= runs; index += 1) {
      bwrap.push(await once('bwrap', index));
      none.push(await once('none', index));
    }
    return { bwrapMs: median(bwrap), unsandboxedMs: median(none), runs };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
