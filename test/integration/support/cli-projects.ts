// The projects CLI as a person runs it, for the CLI project and schedule tests: the real `taskloop` against the test
// server, and tasks files on fresh calc repositories.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { runTaskloop } from '../../support/cli.js';
import { calcFiles } from '../../support/calc-project.js';
import { makeRepo } from '../../support/git-repo.js';
import { writeCalcTasksFile, type FileTask } from './tasks-file.js';
import { uniqueId } from './temporal.js';

// Whole projects of real tasks through CLI child processes: generous on a shared two-core machine.
export const LONG_TEST_MS = 180_000;

// Report cards are stored under TASKLOOP_HOME; a folder of this run's own keeps them out of the checkout.
const home = mkdtempSync(path.join(os.tmpdir(), 'taskloop-home-'));

/** The real CLI against the test server, as a person runs it. */
export function taskloop(args: string[], cwd?: string) {
  return runTaskloop(args, {
    cwd,
    env: { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress'), TASKLOOP_HOME: home },
  });
}

/** A tasks file on a fresh calc repository (or `repoPath`): each task fixes `add` on its own branch with its own scripted coder. */
export async function writeTasksFile(
  tasks: FileTask[],
  project = uniqueId('cp'),
  repoPath?: string,
): Promise<{ file: string; dir: string; project: string; repo: string }> {
  const repo = repoPath ?? (await makeRepo(calcFiles));
  return { ...(await writeCalcTasksFile({ repo, project, tasks, concurrency: 2 })), project, repo };
}
