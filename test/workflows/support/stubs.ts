// Stub activities for the workflow tier. Tests script the task graph's nodes (claim, code, test, review, judge,
// commit) and the skill writer; this file alone maps them onto the activities that serve them, so when activities
// are merged or renamed (the removal folded into the commit) only it changes. The judge node's activity is its
// model's: its rules run in the workflow, so the node calls it only for a task that names a judge model.
import { ApplicationFailure } from '@temporalio/common';
import type { TaskloopActivities } from '../../../activities/index.js';
import type { TaskEvent } from '../../../domain/events.js';
import type { FailureCause } from '../../../domain/failure-causes.js';
import { judgeAttempt } from '../../../domain/judge.js';
import type {
  CoderResult,
  CommitResult,
  Finding,
  ModelVerdict,
  ReviewResult,
  TestRunResult,
} from '../../../domain/records.js';

type Activities = TaskloopActivities;
type In<K extends keyof Activities> = Parameters<Activities[K]>[0];
type Out<K extends keyof Activities> = Awaited<ReturnType<Activities[K]>>;

/** What each scripted node receives and returns. */
interface NodeIO {
  claim: [In<'claimWorktree'>, Out<'claimWorktree'>];
  code: [In<'runCoder'>, CoderResult];
  test: [In<'runTests'>, TestRunResult];
  review: [In<'reviewChanges'>, ReviewResult];
  judge: [In<'askJudgeModel'>, ModelVerdict];
  commit: [In<'commitWorktree'>, CommitResult];
  skill: [In<'generateSkill'>, Out<'generateSkill'>];
}
export type NodeName = keyof NodeIO;

/** A step that does what the node does unscripted (an attempt that passes). */
export const asDefault = Symbol('asDefault');
/** One scripted call: a result, a function of the input (and the call number, from 1) that returns or throws, or the default. */
export type Step<K extends NodeName> =
  NodeIO[K][1] | ((input: NodeIO[K][0], call: number) => NodeIO[K][1] | Promise<NodeIO[K][1]>) | typeof asDefault;
/** Per node: one step for every call, or a list used in order (the last repeats). */
export type StubScript = { [K in NodeName]?: Step<K> | Step<K>[] };

export interface Stubs {
  activities: Activities;
  /** The inputs each node was called with, in order; `removals` counts worktree removals however they ran. */
  calls: { [K in NodeName]: NodeIO[K][0][] } & { removals: number; events: TaskEvent[]; reports: unknown[] };
  /** What the node returns unscripted, for a scripted step that adds to it. */
  runDefault<K extends NodeName>(node: K, input: NodeIO[K][0]): Promise<NodeIO[K][1]>;
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

/** A change the review's path rules refused: the test activity ran nothing (activities/tests/run-tests.ts). */
export function testsRefused(findings: Finding[]): TestRunResult {
  return {
    ...testsPassed,
    outcome: 'error',
    exitCode: null,
    counts: { total: 0, passed: 0, failed: 0, errors: 0, skipped: 0 },
    cases: [],
    stdoutExcerpt: '',
    reason: `tests not run: the review's path rules refused the change (${findings.map((f) => f.rule).join(', ')})`,
    refused: findings,
  };
}

/** A judge model that passes the attempt (the workflow merges its verdict into the rules'). */
export function judgeModelPasses(input: In<'askJudgeModel'>): ModelVerdict {
  const modelUsage = { modelSpec: input.model.modelSpec, modelRequests: 1, inputTokens: 100, outputTokens: 10 };
  return { passed: true, findings: [], agent: 'judge/judge-1', modelUsage };
}

/** A judge model that rejects the attempt with these findings. */
export function judgeModelRejects(findings: Finding[]): (input: In<'askJudgeModel'>) => ModelVerdict {
  return (input) => ({ ...judgeModelPasses(input), passed: false, findings });
}

/** An activity failure that outlives its retries at once, typed so the workflow reads the cause kind from it. */
export function activityFails(kind: string, message: string): () => never {
  return () => {
    throw ApplicationFailure.nonRetryable(message, kind);
  };
}

/** What every node returns unless a test scripts it: an attempt that passes. */
function defaults(hostQueue: string): { [K in NodeName]: Exclude<Step<K>, typeof asDefault> } {
  return {
    claim: (input) => ({
      worktreePath: `/work/${input.workflowId}/${input.attempt}${input.candidate ? `c${input.candidate}` : ''}`,
      branch: `taskloop/${input.taskId}`,
      baseSha: 'b'.repeat(40),
      hostId: 'stub-host',
      hostQueue,
      reused: false,
      ...(input.historyOf === undefined ? {} : { history: [] }),
    }),
    code: coderFinished,
    test: testsPassed,
    review: reviewPassed,
    judge: judgeModelPasses,
    commit: (input) => ({ sha: 'c'.repeat(40), branch: input.branch, created: true }),
    skill: (input) => {
      const skill = {
        id: `skill-${input.pattern}`,
        pattern: input.pattern,
        whenItApplies: input.description,
        whatToDo: `avoid ${input.pattern}`,
        sourceWorkflowIds: input.sourceWorkflowIds,
        createdAt: '2026-01-01T00:00:00.000Z',
        writtenBy: 'distilled' as const,
      };
      const path = `/skills/${input.project}/${skill.id}.md`;
      return { skill, id: skill.id, path, pattern: input.pattern, sourceWorkflowIds: input.sourceWorkflowIds };
    },
  };
}

/** Builds the stubs for one test; `hostQueue` is the queue the claim sends worktree-bound steps to. */
export function createStubs(script: StubScript, hostQueue: string): Stubs {
  const fallback = defaults(hostQueue);
  const calls = { removals: 0, events: [], reports: [] } as unknown as Stubs['calls'];
  const inputs = calls as unknown as Record<string, unknown[]>;
  const call = async <K extends NodeName>(node: K, input: NodeIO[K][0]): Promise<NodeIO[K][1]> => {
    const seen = inputs[node]!;
    seen.push(input);
    const scripted = script[node] ?? asDefault;
    const steps = (Array.isArray(scripted) ? scripted : [scripted]) as Step<K>[];
    const step = steps[Math.min(seen.length, steps.length) - 1];
    return run((step === asDefault ? fallback[node] : step) as Exclude<Step<K>, typeof asDefault>, input, seen.length);
  };
  for (const node of Object.keys(fallback)) inputs[node] = [];

  const activities: Activities = {
    claimWorktree: (input) => call('claim', input),
    runCoder: (input) => call('code', input),
    runTests: (input) => call('test', input),
    reviewChanges: (input) => call('review', input),
    askJudgeModel: (input) => call('judge', input),
    // The judge node of runs started before the patch decisions-in-workflow: none in this tier.
    judgeChange: async (input) => judgeAttempt(input),
    // Called only for a task with an `environment`; the tier's tasks declare none.
    prepareEnvironment: async (input) => ({
      key: 'stub',
      name: `stub-${input.baseSha}`,
      hostDir: '/nonexistent',
      interpreter: 'python3',
      built: false,
      setupMs: 0,
    }),
    async commitWorktree(input) {
      const commit = await call('commit', input);
      if (!input.removeWorktree) return commit;
      calls.removals += 1;
      return { ...commit, worktreeRemoved: true };
    },
    async removeWorktree() {
      calls.removals += 1;
      return { removed: true, wasClean: true };
    },
    recordTaskHistory: async () => undefined,
    async reportFailure(input) {
      calls.reports.push(input);
      return { workflowId: `learning-${input.project}-${input.role}` };
    },
    generateSkill: (input) => call('skill', input),
    // The landing queue's tests (test/workflows/lander.test.ts) script these themselves.
    mergeChange: notInThisTier,
    testMergedTree: notInThisTier,
    landChange: notInThisTier,
    enqueueLanding: notInThisTier,
  };
  const runDefault = <K extends NodeName>(node: K, input: NodeIO[K][0]) =>
    run(fallback[node] as Exclude<Step<K>, typeof asDefault>, input, 0);
  return { activities, calls, runDefault };
}

function notInThisTier(): never {
  throw new Error('landing activities are not called in this tier: no task here sets landOn');
}

/** Every activity name the workers serve. */
export const activityNames = Object.keys(createStubs({}, '').activities) as (keyof Activities)[];

async function run<K extends NodeName>(
  step: Exclude<Step<K>, typeof asDefault>,
  input: NodeIO[K][0],
  call: number,
): Promise<NodeIO[K][1]> {
  return typeof step === 'function'
    ? (step as (input: NodeIO[K][0], call: number) => NodeIO[K][1] | Promise<NodeIO[K][1]>)(input, call)
    : structuredClone(step);
}
