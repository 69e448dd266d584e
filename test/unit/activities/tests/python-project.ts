// Test helper: small Python projects in temp folders, and a check that a process is really gone.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { resolveWorkerSandbox, sandboxPolicyFor } from '../../../../activities/sandbox/index.js';
import type { RunTestsInput } from '../../../../activities/tests/run-tests.js';
import { makeTempDir, writeFiles } from '../../../support/git-repo.js';

export const calcModule = 'def add(a, b):\n    return a + b\n';

/** A project folder holding `files`, its artifact folder, and runTests input for `python3 -m pytest -q`. */
export async function makePythonProject(
  files: Record<string, string>,
  dirs: string[],
): Promise<RunTestsInput & { root: string }> {
  const root = await makeTempDir();
  dirs.push(root);
  const worktreePath = path.join(root, 'repo');
  await writeFiles(worktreePath, { 'calc.py': calcModule, ...files });
  return {
    root,
    worktreePath,
    command: ['python3', '-m', 'pytest', '-q'],
    testEnv: { PYTHONPATH: worktreePath },
    // The worker's mode from TASKLOOP_SANDBOX (bwrap unless set to none), as a real worker would run it.
    sandbox: sandboxPolicyFor(resolveWorkerSandbox({ workDir: root })),
    timeoutMs: 60_000,
    secretValues: [],
    artifactDir: path.join(root, 'artifacts'),
    hostId: 'host-test',
  };
}

/** True while `pid` runs; a zombie (dead, not yet reaped by an init that may never reap) counts as gone. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits (bounded) until `check` holds; death after SIGKILL is not instant. */
export async function waitFor(check: () => boolean, limitMs = 5_000): Promise<boolean> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

/** Host pids of processes whose command line holds `marker` (works across PID namespaces, unlike a recorded pid). */
export function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(marker) && isAlive(Number(entry))) pids.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return pids;
}
