// Small builders for project-state tests: planned tasks with full specs, and a state made from them.
import type { PlannedTask, ProjectPlan } from '../../../../domain/project/plan.js';
import { createProjectState, type ProjectState } from '../../../../domain/project/project-state.js';
import { parseTaskSpec } from '../../../../domain/task-spec.js';
import type { AttemptRecord, TaskOutcome } from '../../../../domain/task-state.js';
import { emptyTelemetry } from '../../../../domain/telemetry.js';

export function plannedTask(id: string, ...dependsOn: string[]): PlannedTask {
  const parsed = parseTaskSpec({
    id,
    project: 'demo',
    repo: '/repos/demo',
    goal: `Do ${id}\nmore detail`,
    models: { coder: 'scripted:/s.json' },
  });
  if (!parsed.success) throw new Error(parsed.error);
  return { spec: parsed.data, milestone: 'm1', feature: 'f1', dependsOn };
}

export function projectPlan(tasks: PlannedTask[], concurrency = 2): ProjectPlan {
  const feature = { id: 'f1', taskIds: tasks.map((task) => task.spec.id) };
  return { project: 'demo', repo: '/repos/demo', concurrency, milestones: [{ id: 'm1', features: [feature] }], tasks };
}

export function projectState(...tasks: PlannedTask[]): ProjectState {
  return createProjectState(projectPlan(tasks));
}

/** An attempt whose coder made `requests` model requests. */
export function attempt(
  n: number,
  status: AttemptRecord['status'],
  requests = 2,
  failureClass?: AttemptRecord['failure'],
): AttemptRecord {
  const telemetry = {
    ...emptyTelemetry(),
    modelRequests: requests,
    inputTokens: 100 * requests,
    outputTokens: 10 * requests,
    patchAttempts: 1,
    patchSuccesses: 1,
  };
  return {
    attempt: n,
    status,
    startedAt: '2024-01-01T00:00:00.000Z',
    envRetries: 0,
    coder: { status: 'finished', summary: 's', changedFiles: [], telemetry, turnsConsumed: 2 },
    ...(failureClass ? { failure: failureClass } : {}),
  };
}

export function outcome(
  status: TaskOutcome['status'],
  attempts: AttemptRecord[],
  extra: Partial<TaskOutcome> = {},
): TaskOutcome {
  return {
    workflowId: 'task-demo-x',
    taskId: 'x',
    project: 'demo',
    status,
    attempts,
    telemetry: {} as TaskOutcome['telemetry'],
    turnsConsumed: attempts.length * 2,
    ...extra,
  };
}
