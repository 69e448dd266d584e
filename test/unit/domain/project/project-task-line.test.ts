import { describe, expect, it } from 'vitest';
import {
  readProjectTaskLine,
  withStateAlias,
  type ProjectTaskLine,
} from '../../../../domain/project/project-task-line.js';

const line: ProjectTaskLine = {
  id: 'a',
  status: 'FAILED',
  workflowId: 'task-calc-a',
  milestone: 'm',
  feature: 'f',
  dependsOn: [],
  runs: 1,
  attempts: 2,
  durationMs: 10,
};

describe('a project task line', () => {
  it('carries its old name `state` beside `status` in the state query, for one release', () => {
    expect(withStateAlias(line)).toEqual({ ...line, state: 'FAILED' });
  });

  it('gets `status` from `state` when a worker of before answered, and keeps a current line as it is', () => {
    const { status: _status, ...old } = line;
    expect(readProjectTaskLine({ ...old, state: 'SKIPPED' })).toMatchObject({ status: 'SKIPPED' });
    expect(readProjectTaskLine(line)).toBe(line);
  });
});
