// Finds what a person means by an id: a task (workflow id task-<project>-<id>, or a task id) or a project
// (workflow id project-<name>, or a project name found by its id or, for scheduled runs, the Project search attribute).
import { WorkflowNotFoundError, type Client, type WorkflowExecutionDescription } from '@temporalio/client';
import { projectWorkflowId } from '../../domain/project/plan.js';
import { ProjectKey } from '../../workflows/search-attributes.js';
import { UsageError } from '../cli-errors.js';
import { resolveTask, type ResolvedTask } from '../tasks/resolve-task.js';
import type { ProjectHandle } from './start-project.js';

export interface ResolvedProject {
  handle: ProjectHandle;
  /** The latest run of the workflow id. */
  description: WorkflowExecutionDescription;
}

export type ResolvedTarget = { kind: 'task'; task: ResolvedTask } | { kind: 'project'; project: ResolvedProject };

export const PROJECT_WORKFLOW_TYPE = 'projectWorkflow';
/** Names that can go inside a visibility query's double quotes unescaped. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

/** A task id wins over a project of the same name; `project-<name>` always names the project. */
export async function resolveTarget(client: Client, command: string, ref: string): Promise<ResolvedTarget> {
  if (ref.startsWith('project-')) {
    const project = await describeProject(client, ref);
    if (project) return { kind: 'project', project };
  }
  try {
    return { kind: 'task', task: await resolveTask(client, command, ref) };
  } catch (error) {
    if (!(error instanceof UsageError) || !error.message.includes(`no task with id ${ref}`)) throw error;
    const project = await findProject(client, ref);
    if (project) return { kind: 'project', project };
    throw new UsageError(
      `taskloop ${command}: no task with id ${ref} and no project named ${ref}; pass a task id, a project name, or a workflow id (task-<project>-<id> or project-<name>) that was started`,
    );
  }
}

/** Only a project: for `taskloop report`. */
export async function resolveProject(client: Client, command: string, ref: string): Promise<ResolvedProject> {
  const project =
    (ref.startsWith('project-') ? await describeProject(client, ref) : undefined) ?? (await findProject(client, ref));
  if (!project)
    throw new UsageError(
      `taskloop ${command}: no project named ${ref}; pass a project name (as in its tasks file) or its workflow id project-<name>`,
    );
  return project;
}

async function findProject(client: Client, name: string): Promise<ResolvedProject | undefined> {
  const direct = await describeProject(client, projectWorkflowId(name));
  if (direct || !SAFE_NAME.test(name)) return direct;
  // Runs started by a Temporal Schedule carry a timestamp after the id; take the latest one of the project.
  let latest: { workflowId: string; startTime: Date } | undefined;
  const query = `WorkflowType = '${PROJECT_WORKFLOW_TYPE}' AND ${ProjectKey.name} = "${name}"`;
  for await (const execution of client.workflow.list({ query })) {
    if (!latest || execution.startTime > latest.startTime)
      latest = { workflowId: execution.workflowId, startTime: execution.startTime };
  }
  return latest ? describeProject(client, latest.workflowId) : undefined;
}

async function describeProject(client: Client, workflowId: string): Promise<ResolvedProject | undefined> {
  const handle: ProjectHandle = client.workflow.getHandle(workflowId);
  try {
    const description = await handle.describe();
    return description.type === PROJECT_WORKFLOW_TYPE ? { handle, description } : undefined;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return undefined;
    throw error;
  }
}
