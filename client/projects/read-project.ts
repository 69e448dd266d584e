// Reads a project: the `state` query while its workflow runs, its report once closed.
import { WorkflowFailedError, type Client } from '@temporalio/client';
import type { ProjectReport, ProjectStateView } from '../../domain/project/project-report.js';
import { buildLiveReport, type LiveProjectReport } from './live-report.js';
import { queryProjectState } from './query-project.js';
import type { ResolvedProject } from './resolve-target.js';

export type ProjectReading =
  | { kind: 'project'; workflowId: string; executionStatus: 'RUNNING'; taskQueue: string; state: ProjectStateView }
  | { kind: 'project'; workflowId: string; executionStatus: 'COMPLETED'; taskQueue: string; report: ProjectReport }
  | { kind: 'project'; workflowId: string; executionStatus: string; taskQueue: string; error: string };

export async function readProject(
  client: Client,
  command: string,
  { handle, description }: ResolvedProject,
): Promise<ProjectReading> {
  const base = { kind: 'project' as const, workflowId: handle.workflowId, taskQueue: description.taskQueue };
  const executionStatus = description.status.name;
  if (executionStatus === 'RUNNING')
    return { ...base, executionStatus, state: await queryProjectState(client, command, handle, description.taskQueue) };
  try {
    const report = await handle.result();
    if (executionStatus === 'COMPLETED') return { ...base, executionStatus, report };
    return { ...base, executionStatus, error: `closed as ${executionStatus}` };
  } catch (error) {
    const cause =
      error instanceof WorkflowFailedError ? (error.cause?.message ?? error.message) : (error as Error).message;
    return { ...base, executionStatus, error: cause };
  }
}

/** The final report of a closed project, or a live one from its state, with the run's id; the reason otherwise. */
export async function readProjectReport(
  client: Client,
  command: string,
  project: ResolvedProject,
): Promise<
  | { report: ProjectReport | LiveProjectReport; runId: string }
  | { workflowId: string; executionStatus: string; error: string }
> {
  const reading = await readProject(client, command, project);
  const runId = project.description.runId;
  if ('report' in reading) return { report: reading.report, runId };
  if ('state' in reading) return { report: buildLiveReport(reading.state, Date.now()), runId };
  return reading;
}
