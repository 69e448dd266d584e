// `taskloop status --json`: a task's or project's reading with the workflow's status under one key,
// `executionStatus` (Temporal's ExecutionStatus, as in `list --json`), and absent fields as null.
import type { ProjectReading } from '../projects/read-project.js';
import type { TaskReading } from '../tasks/read-task.js';
import { withTaskLinesJson } from './json-rows.js';

/** `workflowStatus` repeats `executionStatus` under its name in taskloop 0.1; it goes in the release after 0.1. */
const withAlias = <T extends { executionStatus: string }>(reading: T) => {
  const { executionStatus, ...rest } = reading;
  return { executionStatus, workflowStatus: executionStatus, ...rest };
};

/**
 * A task: while it runs, `live` is the running coder's heartbeat or null, and `environment` the environment step
 * while it runs ({"step": "building", "name", "elapsedMs"}) or null.
 */
export function taskStatusJson(reading: TaskReading): object {
  const { workflowId, ...rest } = reading;
  if ('state' in rest)
    return {
      workflowId,
      ...withAlias({ ...rest, live: rest.live ?? null, environment: rest.environment ?? null }),
    };
  return { workflowId, ...withAlias(rest) };
}

/** A project: each task's line in its state or report with every field, null where it has no value. */
export function projectStatusJson(reading: ProjectReading): object {
  const { kind, workflowId, ...rest } = reading;
  if ('state' in rest) return { kind, workflowId, ...withAlias({ ...rest, state: withTaskLinesJson(rest.state) }) };
  if ('report' in rest) return { kind, workflowId, ...withAlias({ ...rest, report: withTaskLinesJson(rest.report) }) };
  return { kind, workflowId, ...withAlias(rest) };
}
