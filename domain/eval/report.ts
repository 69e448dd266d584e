// The eval report: per arm the figures the anchors publish (resolved %, pass@1, pass after retries, well-formed
// replies, calls, tokens, cost, time), and every pair of arms compared on the instances both ran.
import type { ArmResult, ArmSpec, InstanceRun } from './records.js';
import { pairedBootstrapInterval, signTestPValue, type Interval } from './stats.js';

export interface ArmSummary {
  arm: ArmSpec;
  instances: number;
  resolved: number;
  resolvedRate: number;
  /** Resolved with the change of the first attempt. */
  pass1Rate: number;
  /** Resolved at all (any attempt): the same as resolvedRate, named as Aider names it. */
  passAfterRetriesRate: number;
  /** Share resolved by attempt 1, 2, 3 (cumulative). */
  resolvedByAttempt: number[];
  wellFormedRate: number;
  modelCalls: number;
  tokens: number;
  costUsd: number;
  wallTimePerInstanceMs: number;
  /**
   * Environment set-up, apart from the model's and the tests' time: the arm's builds before its tasks plus the tasks'
   * own environment steps (absent when no instance declares an environment).
   */
  setupMs?: number;
  /** Test runs of the test node, per instance (summed over attempts). */
  testTimePerInstanceMs: number;
  /** Failure classes of the unresolved instances, with counts. */
  failureClasses: Record<string, number>;
}

export interface Comparison {
  a: string;
  b: string;
  /** Instances both arms ran. */
  shared: number;
  /** Mean of (a resolved − b resolved) over the shared instances: a's lead. */
  difference: number;
  interval: Interval;
  signTest: { aOnly: number; bOnly: number; pValue: number };
  /** Instances where exactly one of the two resolved it. */
  disagreements: { instanceId: string; resolvedBy: string }[];
}

export interface EvalReport {
  evalId: string;
  suite: string;
  arms: ArmSummary[];
  comparisons: Comparison[];
  /** Every instance as each arm ran it (keyed by arm id): task status, attempts, what verification found. */
  runs: Record<string, InstanceRun[]>;
  /** The bootstrap's seed, so anyone can recompute the intervals. */
  seed: number;
  /** Attempts the suite allowed each instance (1 + maxRetries); absent in reports made before it was kept. */
  maxAttempts?: number;
  /** `shown`: the fix's tests were in the coder's repository and test command (eval --tests shown); hidden if absent. */
  tests?: 'shown';
}

const rate = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
const MAX_ATTEMPTS = 3;

export function summarizeArm(arm: ArmSpec, runs: readonly InstanceRun[], armSetupMs?: number): ArmSummary {
  const resolved = runs.filter((run) => run.verification.resolved);
  const byAttempt = Array.from(
    { length: MAX_ATTEMPTS },
    (_, i) => resolved.filter((run) => (run.commitAttempt ?? MAX_ATTEMPTS + 1) <= i + 1).length,
  );
  const calls = runs.reduce((sum, run) => sum + run.modelCalls, 0);
  const malformed = runs.reduce((sum, run) => sum + run.malformedReplies, 0);
  // Well formed: coder replies that called an offered tool, out of all coder replies. Records made before that was
  // counted fall back to "calls not refused or failed", which counted a reply without any call as well formed.
  const counted = runs.filter((run) => run.coderReplies !== undefined && run.wellFormedReplies !== undefined);
  const replies = counted.reduce((sum, run) => sum + (run.coderReplies ?? 0), 0);
  const wellFormed = counted.reduce((sum, run) => sum + (run.wellFormedReplies ?? 0), 0);
  const failureClasses: Record<string, number> = {};
  for (const run of runs)
    if (!run.verification.resolved) {
      const key = run.failureClass ?? 'unknown';
      failureClasses[key] = (failureClasses[key] ?? 0) + 1;
    }
  return {
    arm,
    instances: runs.length,
    resolved: resolved.length,
    resolvedRate: rate(resolved.length, runs.length),
    pass1Rate: rate(byAttempt[0] ?? 0, runs.length),
    passAfterRetriesRate: rate(resolved.length, runs.length),
    resolvedByAttempt: byAttempt.map((count) => rate(count, runs.length)),
    wellFormedRate: counted.length > 0 ? rate(wellFormed, replies) : calls > 0 ? Math.max(0, 1 - malformed / calls) : 1,
    modelCalls: calls,
    tokens: runs.reduce((sum, run) => sum + run.inputTokens + run.outputTokens, 0),
    costUsd: runs.reduce((sum, run) => sum + run.costUsd, 0),
    wallTimePerInstanceMs: rate(
      runs.reduce((sum, run) => sum + run.wallTimeMs, 0),
      runs.length,
    ),
    ...setupOf(runs, armSetupMs),
    testTimePerInstanceMs: rate(
      runs.reduce((sum, run) => sum + (run.testMs ?? 0), 0),
      runs.length,
    ),
    failureClasses,
  };
}

function setupOf(runs: readonly InstanceRun[], armSetupMs: number | undefined): { setupMs?: number } {
  const steps = runs.filter((run) => run.setupMs !== undefined);
  if (armSetupMs === undefined && steps.length === 0) return {};
  return { setupMs: (armSetupMs ?? 0) + steps.reduce((sum, run) => sum + (run.setupMs ?? 0), 0) };
}

/** Arm a against arm b on the instances both ran: a's lead, its interval and the sign test. */
export function compareArms(a: ArmResult, b: ArmResult, seed: number): Comparison {
  const bById = new Map(b.runs.map((run) => [run.instanceId, run.verification.resolved]));
  const pairs = a.runs
    .filter((run) => bById.has(run.instanceId))
    .map((run) => ({ id: run.instanceId, a: run.verification.resolved, b: bById.get(run.instanceId) === true }));
  const diffs = pairs.map((pair) => Number(pair.a) - Number(pair.b));
  const aOnly = pairs.filter((pair) => pair.a && !pair.b).length;
  const bOnly = pairs.filter((pair) => pair.b && !pair.a).length;
  return {
    a: a.arm.id,
    b: b.arm.id,
    shared: pairs.length,
    difference: rate(
      diffs.reduce((sum, d) => sum + d, 0),
      diffs.length,
    ),
    interval: pairedBootstrapInterval(diffs, { seed }),
    signTest: { aOnly, bOnly, pValue: signTestPValue(aOnly, bOnly) },
    disagreements: pairs
      .filter((pair) => pair.a !== pair.b)
      .map((pair) => ({ instanceId: pair.id, resolvedBy: pair.a ? a.arm.id : b.arm.id })),
  };
}

export function buildEvalReport(results: readonly ArmResult[], seed = 42, maxAttempts?: number): EvalReport {
  const comparisons: Comparison[] = [];
  for (let i = 0; i < results.length; i++)
    for (let j = i + 1; j < results.length; j++)
      comparisons.push(compareArms(results[i] as ArmResult, results[j] as ArmResult, seed));
  return {
    evalId: results[0]?.evalId ?? '',
    suite: results[0]?.suite ?? '',
    arms: results.map((result) => summarizeArm(result.arm, result.runs, result.setupMs)),
    comparisons,
    runs: Object.fromEntries(results.map((result) => [result.arm.id, result.runs])),
    seed,
    ...(maxAttempts === undefined ? {} : { maxAttempts }),
  };
}
