// `taskloop list` flags -> a Temporal visibility query over taskloop's search attributes. Every value is checked
// against a closed list or a plain-name pattern, so no flag can break out of the query's quotes.
import { failureClasses } from '../../domain/failure-class.js';
import { FailureClassKey, ProjectKey, TaskStatusKey } from '../../workflows/search-attributes.js';

export interface ListFilters {
  status?: string;
  project?: string;
  failureClass?: string;
  executionStatus?: string;
  type?: string;
}

export type ListQueryResult = { success: true; data: string } | { success: false; error: string };

export const taskStatuses = [
  'RUNNING',
  'PAUSE_REQUESTED',
  'PAUSED',
  'WAITING_FOR_HINT',
  'AWAITING_APPROVAL',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
] as const;
/** Temporal's ExecutionStatus values as its query language spells them. */
export const executionStatuses = [
  'Running',
  'Completed',
  'Failed',
  'Canceled',
  'Terminated',
  'ContinuedAsNew',
  'TimedOut',
] as const;
export const workflowTypes = { task: 'taskWorkflow', project: 'projectWorkflow' } as const;
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

export function buildListQuery(filters: ListFilters): ListQueryResult {
  const clauses: string[] = [];
  const types =
    filters.type === undefined
      ? Object.values(workflowTypes)
      : [workflowTypes[filters.type as keyof typeof workflowTypes]];
  if (!types[0]) return fail('--type', filters.type, 'task or project');
  clauses.push(
    types.length === 1
      ? `WorkflowType = '${types[0]}'`
      : `WorkflowType IN (${types.map((type) => `'${type}'`).join(', ')})`,
  );
  if (filters.status !== undefined) {
    // awaiting-approval reads as AWAITING_APPROVAL: a status is typed as it reads.
    const status = filters.status.toUpperCase().replace(/-/g, '_');
    if (!(taskStatuses as readonly string[]).includes(status))
      return fail('--status', filters.status, taskStatuses.join(', '));
    clauses.push(`${TaskStatusKey.name} = '${status}'`);
  }
  if (filters.project !== undefined) {
    if (!PLAIN_NAME.test(filters.project))
      return fail('--project', filters.project, 'a project name (letters, digits, . _ : -)');
    clauses.push(`${ProjectKey.name} = '${filters.project}'`);
  }
  if (filters.failureClass !== undefined) {
    if (!(failureClasses as readonly string[]).includes(filters.failureClass))
      return fail('--class', filters.failureClass, failureClasses.join(', '));
    clauses.push(`${FailureClassKey.name} = '${filters.failureClass}'`);
  }
  if (filters.executionStatus !== undefined) {
    const wanted = filters.executionStatus.replace(/_/g, '').toLowerCase();
    const status = executionStatuses.find((name) => name.toLowerCase() === wanted);
    if (!status) return fail('--execution-status', filters.executionStatus, executionStatuses.join(', '));
    clauses.push(`ExecutionStatus = '${status}'`);
  }
  return { success: true, data: clauses.join(' AND ') };
}

function fail(flag: string, value: string | undefined, expected: string): ListQueryResult {
  return { success: false, error: `${flag} must be one of ${expected}, got ${JSON.stringify(value)}` };
}
