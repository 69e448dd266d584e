// When the review and the judge are rules alone (no model), the test activity also judges the run and commits a change
// that passes: the attempt's commit then needs no activity, and no workflow task, of its own (on the bench machine
// about 45 ms of a calc attempt, interleaved runs, and 7 history events). The verdict is saved before the commit, so a retry that finds the
// worktree committed and removed returns it instead of running the tests again (or failing on a missing worktree).
import path from 'node:path';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { judgeAttempt } from '../../domain/judge.js';
import type { CommitResult, JudgeResult, ReviewResult, TestRunResult } from '../../domain/records.js';
import { readSavedResult, saveResult } from '../saved-result.js';
import { testRunCancelled } from './run-tests.js';

const SAVED_VERDICT = 'verdict.json';

/** A test run with the review's rules (run by the test activity) and, when asked to commit, the rule judge's verdict. */
export type JudgedTestRun = TestRunResult & { review?: ReviewResult; judge?: JudgeResult };

/** What a test activity that may commit returns: the commit when it made (or found) one. */
export type TestThenCommitResult<C extends CommitResult> = JudgedTestRun & { commit?: C };

export interface TestThenCommitInput<C extends CommitResult> {
  /** The test node's work: the tests and the review's rules. */
  runTests: () => Promise<JudgedTestRun>;
  /** Makes the attempt's commit and removes its worktree (commitThenRemove), idempotent by the run trailer. */
  commit: () => Promise<C>;
  /** The task's acceptance tests, which the judge requires. */
  acceptanceTests: string[];
  /** The attempt's own folder (per workflow run and attempt), where the verdict is kept. */
  stateDir: string;
  /** Checked between the verdict and the commit: a cancelled attempt commits nothing. */
  signal?: AbortSignal;
}

/** The judge's rules on a run whose review ran; undefined without a review (a refused change never ran its tests). */
export function ruleVerdict(run: JudgedTestRun, acceptanceTests: string[]): JudgeResult | undefined {
  if (!run.review || run.refused) return undefined;
  return judgeAttempt({ tests: run, review: run.review, acceptanceTests });
}

/**
 * Runs the tests and the review's rules, judges them, and commits when the judge passes. The workflow records the
 * returned review and verdict as its review and judge nodes, and the commit as its commit node.
 */
export async function testThenCommit<C extends CommitResult>(
  input: TestThenCommitInput<C>,
): Promise<TestThenCommitResult<C>> {
  const file = path.join(input.stateDir, SAVED_VERDICT);
  // Saved only for a verdict that commits: any other run (a failure, an environment problem) runs again on retry.
  const saved = await readSavedResult<JudgedTestRun>(file);
  const run = saved ?? (await input.runTests());
  const judge = saved?.judge ?? ruleVerdict(run, input.acceptanceTests);
  if (!judge?.passed) return judge ? { ...run, judge } : run;
  if (input.signal?.aborted) throw testRunCancelled(input.signal);
  if (!saved) await saveResult(file, { ...run, judge });
  return { ...run, judge, commit: await input.commit().catch(commitFailed) };
}

/** The tests passed and the commit failed: the failure says so, keeping its type (its cause) and retryability. */
function commitFailed(error: unknown): never {
  if (error instanceof CancelledFailure) throw error;
  const message = `the tests passed; the commit failed: ${error instanceof Error ? error.message : String(error)}`;
  if (error instanceof ApplicationFailure)
    throw ApplicationFailure.create({
      type: error.type ?? undefined,
      message,
      nonRetryable: error.nonRetryable === true,
      details: error.details ?? undefined,
    });
  throw new Error(message, { cause: error });
}
