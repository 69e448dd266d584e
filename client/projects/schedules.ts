// Temporal Schedules that run a project periodically. The schedule id is schedule-<project>; each scheduled run's
// workflow id is project-<project> plus the timestamp Temporal appends to every scheduled workflow id
// (project-calc-2026-11-29T16:00:00Z), so runs never collide and `taskloop status calc` finds the latest one.
import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { projectWorkflowId, type ProjectPlan } from '../../domain/project/plan.js';
import type { projectWorkflow } from '../../workflows/project.js';
import { ProjectKey } from '../../workflows/search-attributes.js';
import { PROJECT_WORKFLOW_TYPE } from './resolve-target.js';
import { describeProjectRun } from './start-project.js';

const SCHEDULE_PREFIX = 'schedule-';

export interface ProjectScheduleRow {
  scheduleId: string;
  project: string;
  /** null where the schedule has no interval (one made by other means than `schedule --every`). */
  everyMs: number | null;
  paused: boolean;
  nextRuns: string[];
  recentRuns: { workflowId: string; scheduledAt: string }[];
  tasksFile: string | null;
}

export function projectScheduleId(project: string): string {
  return `${SCHEDULE_PREFIX}${project}`;
}

/**
 * Creates the schedule; a second create finds the existing one and changes nothing. A run still going when the
 * next one is due makes that one skip (overlap SKIP), so one project never runs twice at once.
 */
export async function createProjectSchedule(
  client: Client,
  plan: ProjectPlan,
  options: { everyMs: number; taskQueue: string; tasksFile: string },
): Promise<{ scheduleId: string; created: boolean }> {
  const scheduleId = projectScheduleId(plan.project);
  try {
    await client.schedule.create<typeof projectWorkflow>({
      scheduleId,
      spec: { intervals: [{ every: options.everyMs }] },
      action: {
        type: 'startWorkflow',
        workflowType: PROJECT_WORKFLOW_TYPE,
        workflowId: projectWorkflowId(plan.project),
        taskQueue: options.taskQueue,
        args: [{ plan }],
        typedSearchAttributes: [{ key: ProjectKey, value: plan.project }],
        ...describeProjectRun(plan),
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
      memo: { taskloop: 'project', project: plan.project, tasksFile: options.tasksFile },
    });
    return { scheduleId, created: true };
  } catch (error) {
    if (error instanceof ScheduleAlreadyRunning) return { scheduleId, created: false };
    throw error;
  }
}

/** taskloop's schedules: those that start the project workflow. */
export async function listProjectSchedules(client: Client): Promise<ProjectScheduleRow[]> {
  const rows: ProjectScheduleRow[] = [];
  for await (const summary of client.schedule.list()) {
    if (summary.action?.workflowType !== PROJECT_WORKFLOW_TYPE) continue;
    const memo = (summary.memo ?? {}) as { project?: string; tasksFile?: string };
    const every = summary.spec?.intervals?.[0]?.every;
    rows.push({
      scheduleId: summary.scheduleId,
      project: memo.project ?? summary.scheduleId.replace(SCHEDULE_PREFIX, ''),
      everyMs: every === undefined ? null : Number(every),
      paused: summary.state.paused,
      nextRuns: summary.info.nextActionTimes.map((time) => time.toISOString()),
      recentRuns: summary.info.recentActions.map((action) => ({
        workflowId: action.action.workflow.workflowId,
        scheduledAt: action.scheduledAt.toISOString(),
      })),
      tasksFile: memo.tasksFile ?? null,
    });
  }
  return rows.sort((a, b) => a.scheduleId.localeCompare(b.scheduleId));
}

/** Deletes schedule-<name> (or `name` itself when it is a schedule id); false when there is none. Runs already started go on. */
export async function deleteProjectSchedule(
  client: Client,
  name: string,
): Promise<{ scheduleId: string; deleted: boolean }> {
  const scheduleId = name.startsWith(SCHEDULE_PREFIX) ? name : projectScheduleId(name);
  try {
    await client.schedule.getHandle(scheduleId).delete();
    return { scheduleId, deleted: true };
  } catch (error) {
    if (error instanceof ScheduleNotFoundError) return { scheduleId, deleted: false };
    throw error;
  }
}
