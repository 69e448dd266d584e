// The JSON shapes of `status --json`, `report --json` and the other outputs made of project task lines: one key for
// the workflow's status (`executionStatus`) with its 0.1 name beside it, and every row's fields present, null where
// there is no value.
import { describe, expect, it } from 'vitest';
import type { ProjectReport, ProjectStateView } from '../../../../domain/project/project-report.js';
import { withStateAlias, type ProjectTaskLine } from '../../../../domain/project/project-task-line.js';
import type { TaskState } from '../../../../domain/task-state.js';
import { projectTaskLineJson, withTaskLinesJson } from '../../../../client/output/json-rows.js';
import { projectStatusJson, taskStatusJson } from '../../../../client/output/status-json.js';

const pending: ProjectTaskLine = {
  id: 'b',
  status: 'PENDING',
  workflowId: 'task-calc-b',
  milestone: 'm',
  feature: 'f',
  dependsOn: ['a'],
  runs: 0,
  attempts: 0,
  durationMs: 0,
};
const failed: ProjectTaskLine = {
  ...pending,
  id: 'a',
  status: 'FAILED',
  dependsOn: [],
  runs: 1,
  attempts: 1,
  attempt: 1,
  phase: 'done',
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: '2026-01-01T00:01:00.000Z',
  failureClass: 'code_defect',
  reason: 'tests still fail',
};
const absent = {
  attempt: null,
  passedAtAttempt: null,
  phase: null,
  startedAt: null,
  endedAt: null,
  failureClass: null,
  reason: null,
};

describe('a project task line as JSON', () => {
  it('has every field: null for what a pending task has not got, values kept as they are', () => {
    expect(projectTaskLineJson(pending)).toEqual({ ...pending, ...absent });
    expect(projectTaskLineJson(failed)).toEqual({ ...failed, passedAtAttempt: null });
    // JSON keeps a null where it drops an undefined key.
    expect(Object.keys(JSON.parse(JSON.stringify(projectTaskLineJson(pending))))).toEqual(
      expect.arrayContaining(Object.keys(absent)),
    );
  });

  it("keeps the state query's deprecated `state` beside `status`", () => {
    expect(projectTaskLineJson(withStateAlias(pending))).toMatchObject({ status: 'PENDING', state: 'PENDING' });
  });
});

describe('status --json', () => {
  const view: ProjectStateView = {
    project: 'calc',
    status: 'RUNNING',
    paused: false,
    concurrency: 1,
    continuedAsNew: 0,
    tasks: [withStateAlias(failed), withStateAlias(pending)],
  };

  it('of a running project: executionStatus, its 0.1 alias workflowStatus, and full task lines', () => {
    const json = projectStatusJson({
      kind: 'project',
      workflowId: 'project-calc',
      executionStatus: 'RUNNING',
      taskQueue: 'taskloop',
      state: view,
    });
    expect(json).toEqual({
      kind: 'project',
      workflowId: 'project-calc',
      executionStatus: 'RUNNING',
      workflowStatus: 'RUNNING',
      taskQueue: 'taskloop',
      state: {
        ...view,
        tasks: [
          { ...withStateAlias(failed), passedAtAttempt: null },
          { ...pending, ...absent, state: 'PENDING' },
        ],
      },
    });
  });

  it("of an ended project: the report's task lines in full", () => {
    const report = { project: 'calc', status: 'COMPLETED', tasks: [pending] } as unknown as ProjectReport;
    const json = projectStatusJson({
      kind: 'project',
      workflowId: 'project-calc',
      executionStatus: 'COMPLETED',
      taskQueue: 'taskloop',
      report,
    });
    expect(json).toMatchObject({ executionStatus: 'COMPLETED', workflowStatus: 'COMPLETED' });
    expect(json).toHaveProperty('report.tasks', [{ ...pending, ...absent }]);
    expect(withTaskLinesJson(report).tasks).toEqual([{ ...pending, ...absent }]);
  });

  it('of a task: the same two keys; a running one without a coder heartbeat or environment step has them null', () => {
    const state = { status: 'PAUSED' } as TaskState;
    expect(taskStatusJson({ workflowId: 'task-calc-a', executionStatus: 'RUNNING', taskQueue: 'q', state })).toEqual({
      workflowId: 'task-calc-a',
      executionStatus: 'RUNNING',
      workflowStatus: 'RUNNING',
      taskQueue: 'q',
      state,
      live: null,
      environment: null,
    });
    expect(
      taskStatusJson({ workflowId: 'task-calc-a', executionStatus: 'TERMINATED', taskQueue: 'q', error: 'closed' }),
    ).toEqual({
      workflowId: 'task-calc-a',
      executionStatus: 'TERMINATED',
      workflowStatus: 'TERMINATED',
      taskQueue: 'q',
      error: 'closed',
    });
  });
});
