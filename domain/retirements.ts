// Every compatibility shim and the release it goes in: each `patched()` id (its next step: `deprecatePatch`, then
// removal) and each alias kept for a rename (`@deprecated` names). test/unit/domain/retirements.test.ts fails once
// package.json's version reaches an entry's `retireAt`, and when a patch id or a `@deprecated` name is missing here,
// so step 2 and step 3 of "Changing workflow code" (docs/architecture.md) happen when due, not from memory.

export interface Retirement {
  /** The patch id as `patched()` asks it, or the alias's name as declared. */
  name: string;
  kind: 'patch' | 'alias';
  /** The release whose code no longer carries this step: `deprecate` (patch → deprecatePatch) or `remove`. */
  retireAt: string;
  step: 'deprecate' | 'remove';
  /** Where it lives, and what to do when due. */
  where: string;
  what: string;
}

export const retirements: readonly Retirement[] = [
  {
    name: 'task-path-decided-at-start',
    kind: 'patch',
    step: 'remove',
    retireAt: '0.2.0',
    where: 'workflows/task/task-run.ts',
    what: 'remove the deprecatePatch(TASK_PATH_PATCH) call',
  },
  {
    name: 'repeated-test-timeout-is-code',
    kind: 'patch',
    step: 'deprecate',
    retireAt: '0.2.0',
    where: 'workflows/task/task-run.ts',
    what: 'deprecatePatch(HANG_IS_CODE_PATCH); delete the old branch and the *.before-repeated-timeout.json histories',
  },
  {
    name: 'decisions-in-workflow',
    kind: 'patch',
    step: 'deprecate',
    retireAt: '0.2.0',
    where: 'workflows/task/task-run.ts',
    what: 'deprecatePatch; delete the judgeChange activity, judgeNode’s old branch and *.before-decisions-in-workflow.json',
  },
  {
    name: 'skills-from-learnable-failures-only',
    kind: 'patch',
    step: 'deprecate',
    retireAt: '0.2.0',
    where: 'workflows/learning/learning-workflow.ts',
    what: 'deprecatePatch(LEARNABLE_FAILURES_PATCH); every run learns from learnable failures only',
  },
  {
    name: 'landing-withdrawn-on-cancel',
    kind: 'patch',
    step: 'deprecate',
    retireAt: '0.2.0',
    where: 'workflows/task/landing.ts',
    what: 'deprecatePatch(WITHDRAW_ON_CANCEL_PATCH); a cancelled task always withdraws its queued change',
  },
  ...(
    ['reflectionWorkflow', 'memoryQuery', 'reflectionWorkflowIdPrefix', 'reflectionWorkflowId', 'memory'] as const
  ).map((name): Retirement => ({
    name,
    kind: 'alias',
    step: 'remove',
    retireAt: '0.2.0',
    where: 'workflows/index.ts, workflows/learning/messages.ts, domain/learning/learning-state.ts',
    what: 'the learning rename’s old name: remove it once no learning workflow runs under it (operating.md)',
  })),
  {
    name: 'ProjectTaskLineWithAlias',
    kind: 'alias',
    step: 'remove',
    retireAt: '0.2.0',
    where: 'domain/project/project-task-line.ts',
    what: 'the `state` beside `status` in the project query’s lines',
  },
  {
    name: 'status',
    kind: 'alias',
    step: 'remove',
    retireAt: '0.2.0',
    where: 'client/eval/status.ts',
    what: 'EvalStatusRow.status beside executionStatus',
  },
];

/** -1, 0 or 1 as release `a` comes before, is, or comes after `b` (`major.minor.patch`, numbers only). */
export function compareReleases(a: string, b: string): number {
  const parts = (release: string) => release.split('-')[0]!.split('.').map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) {
    const difference = (x[i] ?? 0) - (y[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/** The entries due at `version`: its release is their `retireAt` or later. */
export function dueRetirements(version: string, entries: readonly Retirement[] = retirements): Retirement[] {
  return entries.filter((entry) => compareReleases(version, entry.retireAt) >= 0);
}
