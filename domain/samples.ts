// Samples decided by tests: an attempt may draw several candidate coder runs, each in a fresh worktree from the base,
// and keeps the first whose change passes the task's tests (review, judge and commit then see that one). A small model's
// chance that one of k independent tries is right is far above its chance on one try; the tests, not the model, pick.
// Candidate 1 samples as the coder's version says (often temperature 0); each further one warmer, with a seed of its
// own, so the draws differ. Candidates are independent: none is told what an earlier one of its attempt did.
import type { RetryKind } from './cause-table.js';
import type { TestRunResult } from './records.js';
import type { Sampling } from './retry-sampling.js';
import type { AttemptFailure, AttemptRecord, CandidateRecord } from './task-state.js';

/** The most candidates one attempt may draw: each costs a full coder run. */
export const MAX_SAMPLES = 8;
/** The temperature of candidates after the first (where the version's own is lower). */
export const SAMPLE_TEMPERATURE = 0.7;

/** Which candidate of its attempt a coder run is: 1 is the first (no suffix on its worktree or artifacts). */
export interface CandidateRef {
  candidate?: number;
}

/** The sampling of candidate `candidate` of an attempt, from what the attempt's number already chose (`base`). */
export function samplingForCandidate<T extends Sampling>(base: T, attempt: number, candidate: number | undefined): T {
  if (candidate === undefined || candidate <= 1) return base;
  return {
    ...base,
    temperature: Math.max(base.temperature ?? 0, SAMPLE_TEMPERATURE),
    // Distinct from every retry's seed (2, 3) and from each other candidate's, in every attempt.
    seed: attempt * 100 + candidate,
  };
}

/** The suffix a candidate adds to its attempt's worktree and artifact folder names (`c2`, `c3`; none for the first). */
export function candidateSuffix(candidate: number | undefined): string {
  return candidate === undefined || candidate <= 1 ? '' : `c${candidate}`;
}

/**
 * Whether a failed candidate is followed by another: only when its change never passed the tests (it failed at the
 * code or test node) for a reason another model run can change, and the task's `samples` leave one. That is what the
 * cause table retries with a new attempt, and a run that hit the step limit (`split_task` for an attempt: another draw
 * may finish in fewer steps). A budget spent, a missing capability, an environment problem or an ambiguous goal end the
 * draws. A change that passed the tests is kept whatever the review or the judge say of it.
 */
export function drawsAnotherCandidate(input: {
  failure: Pick<AttemptFailure, 'node' | 'failureClass'>;
  retry: RetryKind;
  candidate: number;
  samples: number | undefined;
}): boolean {
  const { failure, retry, candidate, samples } = input;
  const changeable = retry === 'new_attempt' || failure.failureClass === 'split_task';
  return (failure.node === 'code' || failure.node === 'test') && changeable && candidate < (samples ?? 1);
}

/**
 * Sets the attempt's current candidate aside (it lost: its coder run or its tests failed) and readies the record for
 * the next: what the candidate did moves into `candidates`; the record's coder, test and failure start empty.
 */
export function setAsideCandidate(record: AttemptRecord, failure: AttemptFailure, endedAt: string): void {
  const candidate = record.candidate ?? 1;
  const { hostId, coder, coderSpent, test } = record;
  const lost: CandidateRecord = {
    candidate,
    startedAt: record.candidates?.at(-1)?.endedAt ?? record.startedAt,
    endedAt,
    failure,
    ...(hostId ? { hostId } : {}),
    ...(coder ? { coder } : {}),
    ...(coderSpent ? { coderSpent } : {}),
    ...(test ? { test: testOf(test) } : {}),
  };
  record.candidates = [...(record.candidates ?? []), lost];
  delete record.coder;
  delete record.coderSpent;
  delete record.test;
  delete record.failure;
  record.candidate = candidate + 1;
}

const testOf = ({ outcome, counts, exitCode, durationMs, reason, diff }: TestRunResult): CandidateRecord['test'] => ({
  outcome,
  counts,
  exitCode,
  durationMs,
  ...(reason === undefined ? {} : { reason }),
  ...(diff ? { diff } : {}),
});
