// The words completion looks up while the user types: the server's task and project ids (bounded in time, nothing
// when the server is down or slow: a completion never waits on a network nor prints an error), and the environments
// built on this machine.
import { localEnvironmentCacheDir } from '../env/environment-by-name.js';
import { listWorkflows } from '../projects/list-workflows.js';
import { workflowTypes } from '../projects/list-query.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { LookedUpKind } from './values.js';

/** How long completion waits for the server's ids: past this it offers nothing. */
export const TASK_IDS_WAIT_MS = 1500;
/** The most recent workflows whose ids are offered. */
const TASK_IDS_LIMIT = 200;

/** The words of one kind, or none when they cannot be had in time. */
export async function lookUpWords(kind: LookedUpKind, waitMs = TASK_IDS_WAIT_MS): Promise<string[]> {
  const lookup = kind === 'tasks' ? taskIds(waitMs) : environmentNames();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), waitMs);
    timer.unref();
  });
  try {
    return await Promise.race([lookup.catch(() => []), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Task ids and the workflow ids of tasks and projects, newest first, each once. */
async function taskIds(waitMs: number): Promise<string[]> {
  const query = `WorkflowType IN (${Object.values(workflowTypes)
    .map((type) => `'${type}'`)
    .join(', ')})`;
  // A server that accepts the connection and never answers gives up as soon as completion does: the process ends.
  const rows = await withTaskClient(({ client }) => listWorkflows(client, query, TASK_IDS_LIMIT), {
    connectTimeoutMs: waitMs,
  });
  return [...new Set(rows.flatMap((row) => (row.taskId ? [row.taskId, row.workflowId] : [row.workflowId])))];
}

async function environmentNames(): Promise<string[]> {
  const { listEnvironments } = await import('../../activities/environments/index.js');
  return listEnvironments(await localEnvironmentCacheDir('completion')).map((manifest) => manifest.name);
}
