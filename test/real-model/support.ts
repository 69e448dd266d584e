// What every real-model test checks whatever the model said, and where the outcomes themselves are recorded.
import { appendFile, mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { failureClasses } from '../../domain/failure-class.js';
import type { TaskOutcome } from '../../domain/task-state.js';
import { stateDir } from '../../platform/paths.js';
import { git } from '../integration/support/tasks.js';

/**
 * At ~30 tokens/s (fewer on a busy machine) every call is bounded: a registry whose coder stops at `maxTokens`.
 * `coderCapabilities` narrows the coder's tools, and with them the prompt the server must read (~1.9k of ~2.7k tokens).
 */
export async function writeBoundedRegistry(
  maxTokens: number,
  coderCapabilities = ['READ_REPOSITORY', 'INVESTIGATE_WORKTREE', 'WRITE_WORKTREE', 'RUN_TESTS'],
): Promise<string> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'real-model-registry-')), 'registry.json');
  const version = (capabilities?: string[]) => ({
    prompt: 'builtin',
    parameters: { temperature: 0, maxTokens },
    ...(capabilities ? { capabilities } : {}),
  });
  const registry = {
    coder: {
      champion: 'coder-bounded',
      versions: { 'coder-bounded': version(coderCapabilities) },
    },
    reviewer: { champion: 'reviewer-bounded', versions: { 'reviewer-bounded': version() } },
    judge: { champion: 'judge-bounded', versions: { 'judge-bounded': version() } },
    skillWriter: { champion: 'skill-writer-bounded', versions: { 'skill-writer-bounded': version() } },
  };
  await writeFile(file, JSON.stringify(registry, null, 2));
  return file;
}

/** A task ends COMPLETED with its last attempt PASSED and no class, or FAILED with a class on it and its attempts. */
export function expectTruthfulEnd(outcome: TaskOutcome): void {
  expect(['COMPLETED', 'FAILED']).toContain(outcome.status);
  expect(outcome.attempts.length).toBeGreaterThan(0);
  for (const attempt of outcome.attempts) expect(attempt.status).not.toBe('RUNNING');
  if (outcome.status === 'COMPLETED') {
    expect(outcome.attempts.at(-1)?.status).toBe('PASSED');
    expect(outcome.recommendation).toBeUndefined();
    expect(outcome.commit?.sha).toMatch(/^[0-9a-f]{40}$/);
  } else {
    expect(failureClasses).toContain(outcome.recommendation);
    expect(outcome.reason).toBeTruthy();
    for (const attempt of outcome.attempts.filter((a) => a.status === 'FAILED' || a.status === 'REWORK_REQUIRED'))
      expect(failureClasses).toContain(attempt.failure?.failureClass);
  }
}

/** No worktree is left, and a branch only for a completed task (holding its commit); a failed run leaves none. */
export async function expectNothingLeft(repo: string, outcome: TaskOutcome, workDir?: string): Promise<void> {
  const worktrees = (await git(repo, 'worktree', 'list', '--porcelain'))
    .split('\n')
    .filter((line) => line.startsWith('worktree '));
  expect(worktrees).toEqual([`worktree ${repo}`]);
  const branches = (await git(repo, 'branch', '--list', 'taskloop/*', '--format=%(refname:short)'))
    .split('\n')
    .filter(Boolean);
  expect(branches).toEqual(outcome.status === 'COMPLETED' ? [`taskloop/${outcome.taskId}`] : []);
  if (workDir) {
    const left = await readdir(path.join(workDir, 'worktrees')).catch(() => []);
    expect(left).toEqual([]);
  }
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Appends what happened (not asserted: a 270M model mostly fails) to .taskloop/real-model/outcomes.jsonl. */
export async function recordOutcome(test: string, outcome: TaskOutcome, elapsedMs: number): Promise<void> {
  const dir = path.join(stateDir(), 'real-model');
  await mkdir(dir, { recursive: true });
  const line = {
    at: new Date().toISOString(),
    test,
    status: outcome.status,
    recommendation: outcome.recommendation,
    attempts: outcome.attempts.map((a) => ({
      status: a.status,
      class: a.failure?.failureClass,
      envRetries: a.envRetries,
    })),
    modelCalls: outcome.budget?.spent.modelCalls,
    inputTokens: outcome.budget?.spent.inputTokens,
    outputTokens: outcome.budget?.spent.outputTokens,
    elapsedMs,
    load: os.loadavg().map((value) => value.toFixed(2)),
  };
  console.log(`[real-model] ${test}: ${JSON.stringify(line)}`);
  await appendFile(path.join(dir, 'outcomes.jsonl'), `${JSON.stringify(line)}\n`);
}
