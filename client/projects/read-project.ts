// Reads a project: the `state` query while its workflow runs, its report once closed.
import { WorkflowFailedError, type Client } from '@temporalio/client';
import type { ProjectReport, ProjectStateView } from '../../domain/project/project-report.js';
import { buildLiveReport, type LiveProjectReport } from './live-report.js';
import { queryProjectState } from './query-project.js';
import type { ResolvedProject } from './resolve-target.js';

export type ProjectReading =
  | { kind: 'project'; workflowId: string; workflowStatus: 'RUNNING'; taskQueue: string; state: ProjectStateView }
  | { kind: 'project'; workflowId: string; workflowStatus: 'COMPLETED'; taskQueue: string; report: ProjectReport }
  | { kind: 'project'; workflowId: string; workflowStatus: string; taskQueue: string; error: string };

export async function readProject(
  client: Client,
  command: string,
  { handle, description }: ResolvedProject,
): Promise<ProjectReading> {
  const base = { kind: 'project' as const, workflowId: handle.workflowId, taskQueue: description.taskQueue };
  const workflowStatus = description.status.name;
  if (workflowStatus === 'RUNNING')
    return { ...base, workflowStatus, state: await queryProjectState(client, command, handle, description.taskQueue) };
  try {
    const report = await handle.result();
    if (workflowStatus === 'COMPLETED') return { ...base, workflowStatus, report };
    return { ...base, workflowStatus, error: `closed as ${workflowStatus}` };
  } catch (error) {
    const cause =
      error instanceof WorkflowFailedError ? (error.cause?.message ?? error.message) : (error as Error).message;
    return { ...base, workflowStatus, error: cause };
  }
}

/** The final report of a closed project, or a live one from its state, with the run's id; the reason otherwise. */
export async function readProjectReport(
  client: Client,
  command: string,
  project: ResolvedProject,
): Promise<
  | { report: ProjectReport | LiveProjectReport; runId: string }
  | { workflowId: string; workflowStatus: string; error: string }
> {
  const reading = await readProject(client, command, project);
  const runId = project.description.runId;
  if ('report' in reading) return { report: reading.report, runId };
  if ('state' in reading) return { report: buildLiveReport(reading.state, Date.now()), runId };
  return reading;
}
