// What an eval records: its arms, and per arm and instance what the task did and what verification found.
import type { BudgetSpend } from '../budgets.js';
import { coderResultsOf, type TaskOutcome } from '../task-state.js';
import type { Verification } from './resolve.js';

/** One combination asked for: a coder model, an agent version, learning on or off, candidates an attempt. */
export interface ArmSpec {
  /** Short and stable within an eval: a1, a2, … (part of workflow ids). */
  id: string;
  /** What a person reads: `oracle coder-1 learning=on`. */
  label: string;
  /** A model spec, or `oracle` / `noop` (each instance's known fix, or turns that change nothing). */
  model: string;
  /** The coder agent version pinned, or the registry's champion when absent. */
  agent?: string;
  learning: boolean;
  /** Candidates each attempt draws, the first whose tests pass kept (domain/samples.ts); absent: one. */
  samples?: number;
}

/** One instance as one arm ran it. */
export interface InstanceRun {
  instanceId: string;
  workflowId: string;
  taskStatus: TaskOutcome['status'];
  /** Coder attempts the task used. */
  attempts: number;
  /** The attempt whose change was committed, when one was. */
  commitAttempt?: number;
  verification: Verification;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  wallTimeMs: number;
  /** Replies the loop could not use: refused tool calls and attempts failed as a model problem. */
  malformedReplies: number;
  /** Coder replies (answered model requests), and those that called an offered tool; absent in older records. */
  coderReplies?: number;
  wellFormedReplies?: number;
  /** Why it is unresolved: the task's final failure class, or `verification_failed` when its commit did not hold up. */
  failureClass?: string;
  /** The coder agent version that ran (e.g. `coder/coder-1`). */
  agent?: string;
  /** Time the task's environment steps took (finding the environment, or building it), apart from `wallTimeMs`'s rest. */
  setupMs?: number;
  /** Time the task's test node ran the tests, summed over its attempts. */
  testMs?: number;
}

const lastOf = <T>(items: readonly T[], test: (item: T) => boolean): T | undefined => [...items].reverse().find(test);

/** Reads an ended task and its verification into the eval's record; wall time from the task's own budget clock. */
export function instanceRunOf(instanceId: string, outcome: TaskOutcome, verification: Verification): InstanceRun {
  const spent: Partial<BudgetSpend> = outcome.budget?.spent ?? {};
  const commitAttempt = outcome.commit ? lastOf(outcome.attempts, (a) => a.status === 'PASSED')?.attempt : undefined;
  const modelFailures = outcome.attempts.filter((a) => a.failure?.failureClass === 'model_problem').length;
  // Every coder run: the candidates an attempt set aside (domain/samples.ts) as well as the one it ended on.
  const coders = outcome.attempts.flatMap(coderResultsOf);
  const refused = coders.reduce((sum, coder) => sum + (coder.telemetry.refusedToolCalls ?? 0), 0);
  const lastFailure = lastOf(outcome.attempts, (a) => a.failure !== undefined)?.failure;
  const agent = lastOf(outcome.attempts, (a) => a.coder?.agent !== undefined)?.coder?.agent;
  const modelCalls = spent.modelCalls ?? coders.reduce((s, coder) => s + coder.telemetry.modelRequests, 0);
  const counted = coders.filter((coder) => coder.telemetry.offeredToolReplies !== undefined);
  const replies = counted.reduce(
    (sum, coder) => sum + coder.telemetry.modelRequests - (coder.telemetry.failedModelRequests ?? 0),
    0,
  );
  const wellFormed = counted.reduce((sum, coder) => sum + (coder.telemetry.offeredToolReplies ?? 0), 0);
  return {
    instanceId,
    workflowId: outcome.workflowId,
    taskStatus: outcome.status,
    attempts: outcome.attempts.length,
    ...(commitAttempt === undefined ? {} : { commitAttempt }),
    verification,
    modelCalls,
    inputTokens: spent.inputTokens ?? 0,
    outputTokens: spent.outputTokens ?? 0,
    costUsd: spent.costUsd ?? 0,
    wallTimeMs: spent.wallTimeMs ?? 0,
    malformedReplies: modelFailures + refused,
    ...(counted.length === 0 ? {} : { coderReplies: replies, wellFormedReplies: wellFormed }),
    ...(verification.resolved
      ? {}
      : { failureClass: outcome.commit ? 'verification_failed' : (lastFailure?.failureClass ?? outcome.status) }),
    ...(agent ? { agent } : {}),
    ...timesOf(outcome),
  };
}

/** Set-up and test time of a task's attempts; a task without an environment reports no set-up. */
function timesOf(outcome: TaskOutcome): { setupMs?: number; testMs: number } {
  const setups = outcome.attempts.flatMap((a) => (a.environment ? [a.environment.setupMs] : []));
  const testMs = outcome.attempts.reduce((sum, a) => sum + (a.test?.durationMs ?? 0), 0);
  return setups.length > 0 ? { setupMs: setups.reduce((sum, ms) => sum + ms, 0), testMs } : { testMs };
}

/** An arm's whole run: what the arm workflow returns and its state query shows. */
export interface ArmResult {
  evalId: string;
  suite: string;
  arm: ArmSpec;
  /** Instances in suite order, each once it has been verified. */
  runs: InstanceRun[];
  total: number;
  finished: boolean;
  /** Time the arm spent building (or waiting for) its instances' environments before any task ran. */
  setupMs?: number;
}
