// One arm of an eval: the suite's instances as child task workflows (at most `concurrency` at once), each verified
// independently once its task ends. Durable like any workflow: a restarted worker, server or CLI finds the finished
// instances in history and runs only what is left. Every decision is a domain function; this file only acts.
import {
  ApplicationFailure,
  condition,
  allHandlersFinished,
  ParentClosePolicy,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
  WorkflowIdReusePolicy,
} from '@temporalio/workflow';
import type { EvalActivities, TaskloopActivities } from '../activities/index.js';
import { setupTimeoutOf } from '../domain/environment-timeout.js';
import type { VerifyInstanceInput } from '../activities/eval/index.js';
import { unverified, type Verification } from '../domain/eval/resolve.js';
import { instanceRunOf, type ArmResult, type ArmSpec, type InstanceRun } from '../domain/eval/records.js';
import { isRepoUrl } from '../domain/repo-url.js';
import { summarizeTelemetry } from '../domain/telemetry.js';
import { taskWorkflowId, type TaskSpec } from '../domain/task-spec.js';
import type { TaskOutcome } from '../domain/task-state.js';
import { evalArmStateQuery } from './eval-messages.js';
import { ProjectKey } from './search-attributes.js';
import { hostTaskQueue } from './task-queues.js';
import { taskStartSearchAttributes } from './task/start-attributes.js';
import { outcomeOfFailure } from './task/task-failed.js';
import type { taskWorkflow } from './task.js';

export interface EvalArmInstance {
  spec: TaskSpec;
  /** What verification checks; the commit comes from the task's outcome. */
  verify: Omit<VerifyInstanceInput, 'commitSha' | 'runName'>;
}

export interface EvalArmInput {
  evalId: string;
  suite: string;
  arm: ArmSpec;
  concurrency: number;
  instances: EvalArmInstance[];
}

/** `eval-<evalId>-<arm id>`: one per arm, so starting the same eval again finds the running or finished arm. */
export const evalArmWorkflowId = (evalId: string, armId: string) => `eval-${evalId}-${armId}`;

/** The verification activity on `taskQueue` (explicit timeouts; setup faults retried a few times). */
const verifierOn = (taskQueue: string) =>
  proxyActivities<EvalActivities>({
    taskQueue,
    startToCloseTimeout: '2 hours',
    heartbeatTimeout: '1 minute',
    retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
  }).verifyEvalInstance;

/**
 * Builds (or finds) each instance's environment before any of its tasks runs, so the arm's set-up is counted apart
 * from the tasks' model and test time. Arms running side by side share one build (the cache's lock). A set-up that
 * fails is left to the instance's own task, which fails with the cause and the set-up's output. Suites without
 * environments (every recorded history) schedule nothing here.
 */
async function prepareEnvironments(input: EvalArmInput): Promise<void> {
  const seen = new Set<string>();
  for (const { spec } of input.instances) {
    if (!spec.environment) continue;
    const id = JSON.stringify([spec.repo, spec.baseRef, spec.environment]);
    if (seen.has(id)) continue;
    seen.add(id);
    const timeoutMs = setupTimeoutOf(spec.environment);
    const { prepareEnvironment } = proxyActivities<Pick<TaskloopActivities, 'prepareEnvironment'>>({
      taskQueue: workflowInfo().taskQueue,
      startToCloseTimeout: timeoutMs + 5 * 60_000,
      heartbeatTimeout: '1 minute',
      retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 3 },
    });
    await prepareEnvironment({
      workflowId: workflowInfo().workflowId,
      attempt: 0,
      repo: spec.repo,
      baseSha: spec.baseRef,
      environment: spec.environment,
      sandbox: { sandbox: spec.sandbox, network: spec.network, limits: spec.limits },
      secretEnvNames: spec.secretEnvNames,
    }).catch(() => undefined);
  }
}

export async function evalArmWorkflow(input: EvalArmInput): Promise<ArmResult> {
  if (input.instances.length === 0)
    throw ApplicationFailure.nonRetryable(`eval ${input.evalId} arm ${input.arm.id} has no instances`, 'InvalidEval');
  const runs: (InstanceRun | undefined)[] = input.instances.map(() => undefined);
  let setupMs: number | undefined;
  const result = (): ArmResult => ({
    evalId: input.evalId,
    suite: input.suite,
    arm: input.arm,
    ...(setupMs === undefined ? {} : { setupMs }),
    runs: runs.filter((run): run is InstanceRun => run !== undefined),
    total: input.instances.length,
    finished: runs.every((run) => run !== undefined),
  });
  setHandler(evalArmStateQuery, result);
  upsertSearchAttributes([{ key: ProjectKey, value: input.instances[0]?.spec.project ?? input.evalId }]);

  if (input.instances.some((instance) => instance.spec.environment)) {
    const started = Date.now();
    await prepareEnvironments(input);
    setupMs = Date.now() - started;
  }

  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < input.instances.length) {
      const index = next++;
      const instance = input.instances[index] as EvalArmInstance;
      runs[index] = await runInstance(instance);
      const done = runs.filter(Boolean).length;
      const resolved = runs.filter((run) => run?.verification.resolved).length;
      // Current details live in the worker, not the history: the added line changes no command.
      setCurrentDetails(
        `${input.arm.label}: ${done}/${input.instances.length} done, ${resolved} resolved\n\n**Trajectories**: \`taskloop show ${input.evalId}\` once the eval has written its report, each instance's \`taskloop show <its workflow id>\` now`,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency, input.instances.length)) }, lane));
  await condition(allHandlersFinished);
  return result();
}

async function runInstance(instance: EvalArmInstance): Promise<InstanceRun> {
  const outcome = await runTask(instance.spec);
  const commit = outcome.commit;
  // A URL's commit lives in the committing host's clone; a local repository's is visible to every worker.
  const host = [...outcome.attempts].reverse().find((attempt) => attempt.status === 'PASSED')?.hostId;
  const taskQueue = commit && host && isRepoUrl(instance.spec.repo) ? hostTaskQueue(host) : workflowInfo().taskQueue;
  let verification: Verification;
  try {
    verification = await verifierOn(taskQueue)({
      ...instance.verify,
      runName: outcome.workflowId,
      ...(commit ? { commitSha: commit.sha } : {}),
    });
  } catch (error) {
    // Its retries spent: the instance is recorded unresolved with the reason, and the arm goes on.
    const why = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    verification = unverified(commit?.sha ?? instance.verify.baseRef, commit ? 'commit' : 'base', why);
  }
  return instanceRunOf(instance.spec.id, outcome, verification);
}

/** Runs the instance's task to its end; a failed, terminated or cancelled task is an outcome, never a throw. */
async function runTask(spec: TaskSpec): Promise<TaskOutcome> {
  const workflowId = taskWorkflowId(spec);
  try {
    const handle = await startChild<typeof taskWorkflow>('taskWorkflow', {
      workflowId,
      args: [{ spec }],
      taskQueue: workflowInfo().taskQueue,
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
      parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
      typedSearchAttributes: taskStartSearchAttributes(spec),
      staticSummary: (spec.goal.split('\n')[0] ?? spec.goal).slice(0, 200),
    });
    return await handle.result();
  } catch (error) {
    const outcome = outcomeOfFailure(error);
    if (outcome) return outcome;
    const reason = error instanceof Error ? error.message : String(error);
    return {
      workflowId,
      taskId: spec.id,
      project: spec.project,
      status: 'FAILED',
      attempts: [],
      reason,
      turnsConsumed: 0,
      telemetry: summarizeTelemetry([], { tasks: 1, acceptedTasks: 0 }),
    };
  }
}
