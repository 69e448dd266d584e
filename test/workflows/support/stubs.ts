// Stub activities for the workflow tier, keyed by activity name: plain functions that return scripted results.
// The only file that knows the activities' names and shapes: when activities are merged or renamed, change it here.
import { ApplicationFailure } from '@temporalio/common';
import type { TaskloopActivities } from '../../../activities/index.js';
import type { FailureCause } from '../../../domain/failure-causes.js';
import type { CoderResult, CommitResult, JudgeResult, ReviewResult, TestRunResult } from '../../../domain/records.js';

export type ActivityName = keyof TaskloopActivities;
type Input<K extends ActivityName> = Parameters<TaskloopActivities[K]>[0];
type Output<K extends ActivityName> = Awaited<ReturnType<TaskloopActivities[K]>>;

/** A step that does what the activity does unscripted (an attempt that passes). */
export const asDefault = Symbol('asDefault');
/** One scripted call: a result, a function of the input (and the call number, from 1) that returns or throws, or the default. */
export type Step<K extends ActivityName> =
  Output<K> | ((input: Input<K>, call: number) => Output<K> | Promise<Output<K>>) | typeof asDefault;
/** Per activity: one step for every call, or a list used in order (the last repeats); give an array result as a function. */
export type StubScript = { [K in ActivityName]?: Step<K> | Step<K>[] };

export interface Stubs {
  activities: TaskloopActivities;
  /** The inputs each activity was called with, in order. */
  calls: { [K in ActivityName]: Input<K>[] };
  /** What the activity returns unscripted, for a scripted step that adds to it. */
  runDefault<K extends ActivityName>(name: K, input: Input<K>): Promise<Output<K>>;
}

const telemetry = {
  patchAttempts: 1,
  patchSuccesses: 1,
  patchMismatches: 0,
  writeFileOperations: 0,
  writeFileFallbacks: 0,
  mutationOperations: 1,
  modelRequests: 1,
  inputTokens: 100,
  outputTokens: 50,
};

export const coderFinished: CoderResult = {
  status: 'finished',
  summary: 'changed calc.py',
  changedFiles: ['calc.py'],
  telemetry,
  turnsConsumed: 1,
};

export const testsPassed: TestRunResult = {
  outcome: 'passed',
  exitCode: 0,
  counts: { total: 2, passed: 2, failed: 0, errors: 0, skipped: 0 },
  cases: [
    { id: 'tests/test_calc.py::test_add', outcome: 'passed' },
    { id: 'tests/test_calc.py::test_sub', outcome: 'passed' },
  ],
  casesTruncated: false,
  stdoutExcerpt: '2 passed',
  stderrExcerpt: '',
  durationMs: 10,
};

export const reviewPassed: ReviewResult = {
  passed: true,
  findings: [],
  changedFiles: ['calc.py'],
  diffStat: { files: 1, insertions: 1, deletions: 1 },
};

/** A test run that failed with the given cause (the activity's own typed cause, as runTests reports it). */
export function testsFailedWith(cause: FailureCause): TestRunResult {
  return {
    ...testsPassed,
    outcome: cause.kind === 'TestsFailed' ? 'failed' : 'error',
    exitCode: 1,
    counts: { total: 2, passed: 1, failed: 1, errors: 0, skipped: 0 },
    cases: [
      { id: 'tests/test_calc.py::test_add', outcome: 'passed' },
      { id: 'tests/test_calc.py::test_sub', outcome: 'failed' },
    ],
    stdoutExcerpt: cause.message,
    cause,
  };
}

/** An activity failure that outlives its retries at once, typed so the workflow reads the cause kind from it. */
export function activityFails(kind: string, message: string): () => never {
  return () => {
    throw ApplicationFailure.nonRetryable(message, kind);
  };
}

/** The results every activity returns unless a test scripts it: an attempt that passes. */
function defaults(hostQueue: string): { [K in ActivityName]: Step<K> } {
  return {
    claimWorktree: (input) => ({
      worktreePath: `/work/${input.workflowId}/${input.attempt}`,
      branch: `taskloop/${input.taskId}`,
      baseSha: 'b'.repeat(40),
      hostId: 'stub-host',
      hostQueue,
      reused: false,
    }),
    runCoder: coderFinished,
    runTests: testsPassed,
    reviewChanges: reviewPassed,
    judgeWithModel: (input): JudgeResult => input.judge,
    commitWorktree: (input): CommitResult => ({ sha: 'c'.repeat(40), branch: input.branch, created: true }),
    removeWorktree: { removed: true, wasClean: true },
    recordEvents: undefined,
    loadTaskHistory: () => [],
    recordTaskHistory: undefined,
    reportFailure: (input) => ({ workflowId: `reflection-${input.project}-${input.role}` }),
    generateSkill: (input) => ({
      id: `skill-${input.pattern}`,
      path: `${input.skillsDir}/${input.pattern}.md`,
      pattern: input.pattern,
      sourceWorkflowIds: input.sourceWorkflowIds,
      writtenBy: 'distilled',
    }),
  };
}

/** Every activity name the workers serve. */
export const activityNames = Object.keys(defaults('')) as ActivityName[];

/** Builds the stub activities for one test; `hostQueue` is the queue the claim sends worktree-bound steps to. */
export function createStubs(script: StubScript, hostQueue: string): Stubs {
  const fallback = defaults(hostQueue);
  const calls = {} as Stubs['calls'];
  const activities = {} as Record<ActivityName, (input: unknown) => Promise<unknown>>;
  for (const name of Object.keys(fallback) as ActivityName[]) {
    const scripted = script[name] ?? asDefault;
    const steps = (Array.isArray(scripted) ? scripted : [scripted]).map((step: unknown) =>
      step === asDefault ? fallback[name] : step,
    ) as Step<typeof name>[];
    const seen: unknown[] = [];
    (calls as Record<string, unknown[]>)[name] = seen;
    activities[name] = async (input: unknown) => {
      seen.push(input);
      const step = steps[Math.min(seen.length, steps.length) - 1];
      return typeof step === 'function'
        ? (step as (input: unknown, call: number) => unknown)(input, seen.length)
        : structuredClone(step);
    };
  }
  const runDefault = async (name: ActivityName, input: unknown): Promise<unknown> => {
    const step: unknown = fallback[name];
    return typeof step === 'function'
      ? (step as (input: unknown, call: number) => unknown)(input, 0)
      : structuredClone(step);
  };
  return {
    activities: activities as unknown as TaskloopActivities,
    calls,
    runDefault: runDefault as Stubs['runDefault'],
  };
}
