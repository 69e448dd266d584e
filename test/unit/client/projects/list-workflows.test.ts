import type { WorkflowExecutionInfo } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { toRow } from '../../../../client/projects/list-workflows.js';
import {
  AttemptKey,
  FailureClassKey,
  PhaseKey,
  ProjectKey,
  TaskIdKey,
  TaskStatusKey,
} from '../../../../workflows/search-attributes.js';

function execution(
  type: string,
  status: string,
  attributes: ConstructorParameters<typeof TypedSearchAttributes>[0],
): WorkflowExecutionInfo {
  return {
    type,
    workflowId: `${type}-id`,
    runId: 'run-1',
    status: { code: 1, name: status },
    startTime: new Date('2026-01-01T00:00:00.000Z'),
    typedSearchAttributes: new TypedSearchAttributes(attributes),
  } as unknown as WorkflowExecutionInfo;
}

describe('toRow', () => {
  it("shows a task's own status, phase, attempt and class from its search attributes", () => {
    const row = toRow(
      execution('taskWorkflow', 'RUNNING', [
        { key: TaskStatusKey, value: 'PAUSED' },
        { key: PhaseKey, value: 'test' },
        { key: AttemptKey, value: 2 },
        { key: FailureClassKey, value: 'model_problem' },
        { key: ProjectKey, value: 'calc' },
        { key: TaskIdKey, value: 'fix-add' },
      ]),
    );
    expect(row).toEqual({
      workflowId: 'taskWorkflow-id',
      runId: 'run-1',
      taskId: 'fix-add',
      type: 'task',
      project: 'calc',
      status: 'PAUSED',
      executionStatus: 'RUNNING',
      phase: 'test',
      attempt: 2,
      failureClass: 'model_problem',
      startTime: '2026-01-01T00:00:00.000Z',
      closeTime: null,
    });
  });

  it('has every key in every row: null where there is no value (a project has no phase, attempt or class)', () => {
    const row = toRow(execution('projectWorkflow', 'RUNNING', []));
    expect(Object.keys(row)).toEqual([
      'workflowId',
      'runId',
      'taskId',
      'type',
      'project',
      'status',
      'executionStatus',
      'phase',
      'attempt',
      'failureClass',
      'startTime',
      'closeTime',
    ]);
    expect(row).toMatchObject({
      taskId: null,
      project: null,
      phase: null,
      attempt: null,
      failureClass: null,
      closeTime: null,
    });
    expect(JSON.parse(JSON.stringify(row))).toEqual(row);
  });

  it("shows the workflow's status when the task status no longer tells (terminated), and projects by their execution status", () => {
    expect(toRow(execution('taskWorkflow', 'TERMINATED', [{ key: TaskStatusKey, value: 'RUNNING' }])).status).toBe(
      'TERMINATED',
    );
    expect(toRow(execution('projectWorkflow', 'COMPLETED', [{ key: ProjectKey, value: 'calc' }]))).toMatchObject({
      type: 'project',
      status: 'COMPLETED',
      project: 'calc',
    });
  });
});
