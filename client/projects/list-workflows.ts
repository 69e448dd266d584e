// The rows of `taskloop list`: one per workflow run that matches the visibility query, newest first. Every row has
// every key; one with no value (a project's phase, an open run's close time) is null, as in every --json row.
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import {
  AttemptKey,
  FailureClassKey,
  PhaseKey,
  ProjectKey,
  TaskIdKey,
  TaskStatusKey,
} from '../../workflows/search-attributes.js';
import { workflowTypes } from './list-query.js';

export interface WorkflowRow {
  workflowId: string;
  runId: string;
  /** The task's id (its TaskId search attribute), as `status`, `show` and `retry` take it; null for a project. */
  taskId: string | null;
  type: 'task' | 'project' | string;
  project: string | null;
  /** The task's own status (TaskStatus) while it has one, else the workflow's execution status. */
  status: string;
  /** Temporal's status of the workflow run (its ExecutionStatus): RUNNING, COMPLETED, FAILED, CANCELLED, ... */
  executionStatus: string;
  phase: string | null;
  attempt: number | null;
  failureClass: string | null;
  startTime: string;
  closeTime: string | null;
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
  return {
    workflowId: execution.workflowId,
    runId: execution.runId,
    taskId: attributes.get(TaskIdKey) ?? null,
    type,
    project: attributes.get(ProjectKey) ?? null,
    status:
      taskStatus && (executionStatus === 'RUNNING' || executionStatus === 'COMPLETED') ? taskStatus : executionStatus,
    executionStatus,
    phase: attributes.get(PhaseKey) ?? null,
    attempt: attributes.get(AttemptKey) ?? null,
    failureClass: attributes.get(FailureClassKey) ?? null,
    startTime: execution.startTime.toISOString(),
    closeTime: execution.closeTime?.toISOString() ?? null,
  };
}
