import { describe, expect, it } from 'vitest';
import { buildListQuery } from '../../../../client/projects/list-query.js';

describe('buildListQuery', () => {
  it('lists both taskloop workflow types when no filter is given', () => {
    expect(buildListQuery({})).toEqual({ success: true, data: "WorkflowType IN ('taskWorkflow', 'projectWorkflow')" });
  });

  it('joins every filter with AND, normalising the case of statuses', () => {
    const query = buildListQuery({
      type: 'task',
      status: 'failed',
      project: 'calc',
      failureClass: 'model_problem',
      executionStatus: 'timed_out',
    });
    expect(query).toEqual({
      success: true,
      data: "WorkflowType = 'taskWorkflow' AND TaskStatus = 'FAILED' AND Project = 'calc' AND FailureClass = 'model_problem' AND ExecutionStatus = 'TimedOut'",
    });
  });

  it('reads awaiting-approval as the status AWAITING_APPROVAL', () => {
    expect(buildListQuery({ type: 'task', status: 'awaiting-approval' })).toEqual({
      success: true,
      data: "WorkflowType = 'taskWorkflow' AND TaskStatus = 'AWAITING_APPROVAL'",
    });
  });

  it.each([
    [
      { status: 'DONE' },
      '--status must be one of RUNNING, PAUSE_REQUESTED, PAUSED, WAITING_FOR_HINT, AWAITING_APPROVAL, COMPLETED, FAILED, CANCELLED, got "DONE"',
    ],
    [{ type: 'batch' }, '--type must be one of task or project, got "batch"'],
    [{ failureClass: 'oops' }, '--class must be one of code_defect, budget_exhausted'],
    [{ executionStatus: 'Sleeping' }, '--execution-status must be one of Running, Completed'],
  ])('refuses %j naming the flag, the allowed values and the value received', (filters, message) => {
    const query = buildListQuery(filters);
    expect(query.success).toBe(false);
    expect(query.success ? '' : query.error).toContain(message);
  });

  it('refuses a project name that could break out of the quotes of the query', () => {
    const query = buildListQuery({ project: `calc' OR WorkflowType != '` });
    expect(query).toMatchObject({ success: false });
    expect(query.success ? '' : query.error).toContain('--project must be one of a project name');
  });
});
