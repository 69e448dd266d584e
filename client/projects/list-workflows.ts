// The rows of `taskloop list`: one per workflow run that matches the visibility query, newest first.
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { AttemptKey, FailureClassKey, PhaseKey, ProjectKey, TaskStatusKey } from '../../workflows/search-attributes.js';
import { workflowTypes } from './list-query.js';

export interface WorkflowRow {
  workflowId: string;
  runId: string;
  type: 'task' | 'project' | string;
  project?: string;
  /** The task's own status (TaskStatus) while it has one, else the workflow's execution status. */
  status: string;
  executionStatus: string;
  phase?: string;
  attempt?: number;
  failureClass?: string;
  startTime: string;
  closeTime?: string;
}

export async function listWorkflows(client: Client, query: string, limit: number): Promise<WorkflowRow[]> {
  const rows: WorkflowRow[] = [];
  for await (const execution of client.workflow.list({ query, pageSize: Math.min(limit, 1000) })) {
    rows.push(toRow(execution));
    if (rows.length >= limit) break;
  }
  return rows.sort((a, b) => b.startTime.localeCompare(a.startTime));
}

export function toRow(execution: WorkflowExecutionInfo): WorkflowRow {
  const attributes = execution.typedSearchAttributes;
  const type = Object.entries(workflowTypes).find(([, name]) => name === execution.type)?.[0] ?? execution.type;
  const executionStatus = execution.status.name;
  const taskStatus = attributes.get(TaskStatusKey);
  const optional = {
    project: attributes.get(ProjectKey),
    phase: attributes.get(PhaseKey),
    attempt: attributes.get(AttemptKey),
    failureClass: attributes.get(FailureClassKey),
    closeTime: execution.closeTime?.toISOString(),
  };
  return {
    workflowId: execution.workflowId,
    runId: execution.runId,
    type,
    status:
      taskStatus && (executionStatus === 'RUNNING' || executionStatus === 'COMPLETED') ? taskStatus : executionStatus,
    executionStatus,
    startTime: execution.startTime.toISOString(),
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}
