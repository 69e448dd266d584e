// Shared by the attack suite's files: a canary home the attacks aim at, a task per attack, and the sinks searched for
// what must never reach them.
import type { Client } from '@temporalio/client';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TaskOutcome } from '../../../domain/task-state.js';
import { makeCalcProject, type ScriptTurn } from '../../support/calc-project.js';
import type { TestTemporal } from '../support/temporal.js';
import { startTestTask, taskSpec, taskOutcome } from '../support/tasks.js';

export const CANARY = 'CANARY-HOST-FILE-CONTENT';

/** A folder standing for a user's home: an SSH key and a Python file only the host should read. */
export async function makeCanaryHome(): Promise<string> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'taskloop-attack-home-'));
  await mkdir(path.join(home, '.ssh'), { recursive: true });
  await writeFile(path.join(home, '.ssh', 'id_rsa'), `${CANARY} private key\n`);
  await writeFile(path.join(home, 'leak.py'), `SECRET_SOURCE = "${CANARY}"\n`);
  return home;
}

export interface AttackRun {
  outcome: TaskOutcome;
  repo: string;
  branch: string;
  workflowId: string;
}

/** One attack as a real task: the scripted coder writes the attack, its tests run in the sandbox, nothing retries. */
export async function runAttack(
  t: TestTemporal,
  coder: ScriptTurn[],
  options: {
    env?: Record<string, string>;
    extra?: Record<string, unknown>;
    goal?: string;
    /** Changes the base repository before the task starts (e.g. a submodule's gitlink). */
    prepare?: (repo: string) => Promise<void>;
  } = {},
): Promise<AttackRun> {
  const project = await makeCalcProject({ coder });
  await options.prepare?.(project.repo);
  const spec = taskSpec({
    repo: project.repo,
    goal: options.goal ?? 'fix add',
    models: { coder: `scripted:${project.scriptFile}` },
    testEnv: options.env ?? {},
    allowTestEdits: true,
    maxRetries: 0,
    envRetryLimit: 0,
    testTimeoutMs: 30_000,
    limits: { memoryMb: 1024, processes: 64, fileSizeMb: 100, outputMb: 16 },
    ...options.extra,
  });
  const handle = await startTestTask(t.client, t.host.taskQueue, spec);
  return {
    outcome: await taskOutcome(handle),
    repo: project.repo,
    branch: `taskloop/${spec.id}`,
    workflowId: handle.workflowId,
  };
}

/** Every file below `dir` (links not followed) whose bytes hold `needle`, as paths relative to `dir`. */
export async function filesHolding(dir: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = await readFile(file).catch(() => Buffer.alloc(0));
    if (text.includes(needle)) found.push(path.relative(dir, file));
  }
  return found;
}

/** The workflow's whole history as text, payloads decoded, to search for what must never be stored there. */
export async function historyText(client: Client, workflowId: string): Promise<string> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return JSON.stringify(history, (key, value: unknown) => {
    if (typeof value === 'bigint') return String(value);
    // A payload's data comes as base64 (its bytes): read it as the JSON text it is.
    if (key === 'data' && typeof value === 'string') return Buffer.from(value, 'base64').toString('utf8');
    return value;
  });
}

/** The attempt's typed cause, wherever the node put it (the failure record, else the test run). */
export const causeOf = (outcome: TaskOutcome) =>
  outcome.attempts[0]?.failure?.cause?.kind ?? outcome.attempts[0]?.test?.cause?.kind;
