// One task of a project as every output shows it: the `state` query (status --json while the project runs), the
// project's report (report --json, status --json once it ended) and the live report are made of these lines.
import type { TaskPhase } from '../task-state.js';
import type { ProjectTaskRecord } from './project-state.js';
import type { TaskRunStatus } from './scheduling.js';

export interface ProjectTaskLine {
  id: string;
  /** PENDING, RUNNING, COMPLETED, FAILED, SKIPPED or CANCELLED: the word every JSON output uses. */
  status: TaskRunStatus;
  workflowId: string;
  milestone: string;
  feature: string;
  dependsOn: string[];
  /** Child runs started (a retry starts another). */
  runs: number;
  /** Attempts over all runs. */
  attempts: number;
  /** Attempts of the latest finished run. */
  attempt?: number;
  /** The attempt, counted over all runs, that passed. */
  passedAtAttempt?: number;
  phase?: TaskPhase;
  startedAt?: string;
  endedAt?: string;
  /** Time in child runs, summed over runs. */
  durationMs: number;
  failureClass?: string;
  reason?: string;
}

/** The line of one task record of the project workflow's state. */
export function toProjectTaskLine(task: ProjectTaskRecord): ProjectTaskLine {
  return {
    id: task.id,
    status: task.status,
    workflowId: task.workflowId,
    milestone: task.milestone,
    feature: task.feature,
    dependsOn: task.dependsOn,
    runs: task.runs,
    attempts: task.attempts,
    durationMs: task.durationMs,
    ...dropUndefined({
      attempt: task.attempt,
      passedAtAttempt: task.passedAtAttempt,
      phase: task.phase,
      startedAt: task.startedAt,
      endedAt: task.endedAt,
      failureClass: task.failureClass,
      reason: task.reason,
    }),
  };
}

/**
 * The line with `state` beside `status`, as the `state` query answered before `status` was the one word (taskloop
 * 0.1): kept for one release so scripts reading `state` go on working.
 * @deprecated read `status`; `state` goes in the next release.
 */
export type ProjectTaskLineWithAlias = ProjectTaskLine & { state: TaskRunStatus };

export function withStateAlias(line: ProjectTaskLine): ProjectTaskLineWithAlias {
  return { ...line, state: line.status };
}

/** A line from a worker or a report of before `status` (it had `state` only, or fewer fields): `status` filled in. */
export function readProjectTaskLine(
  line: ProjectTaskLine | (Omit<ProjectTaskLine, 'status'> & { state: TaskRunStatus }),
): ProjectTaskLine {
  return 'status' in line && line.status !== undefined
    ? line
    : { ...line, status: (line as { state: TaskRunStatus }).state };
}

function dropUndefined<T extends object>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Partial<T>;
}
