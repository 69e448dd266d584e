import { describe, expect, it } from 'vitest';
import type { FailureEvent } from '../../../../domain/learning/failure-event.js';
import {
  acceptFailure,
  createLearningState,
  describeGroupPattern,
  recordSkillError,
  recordSkillWritten,
  learningStateLimits,
  readCarriedState,
  type BufferedFailureEvent,
} from '../../../../domain/learning/learning-state.js';
import { groupFailures, type FailureGroup } from '../../../../domain/learning/similarity.js';

const on = { enabled: true, roles: ['coder'] };
const failure = (
  n: number,
  description = `Fix the cache key in fetcher ${n}`,
  extra: Partial<FailureEvent> = {},
): FailureEvent => ({
  workflowId: `task-p-t${n}`,
  taskId: `t${n}`,
  attempt: 1,
  description,
  failureClass: 'context_problem',
  reason: 'tests failed',
  evidence: '',
  ...extra,
});
const groupOf = (failures: BufferedFailureEvent[]): FailureGroup<BufferedFailureEvent> => groupFailures(failures)[0]!;

describe('acceptFailure', () => {
  it('buffers only failures a coder can learn from: never environment, model, budget or capability problems', () => {
    const state = createLearningState('p', 'coder');
    const classes = ['model_problem', 'environment_problem', 'budget_exhausted', 'missing_capability', 'split_task'];
    classes.forEach((failureClass, n) => {
      expect(acceptFailure(state, failure(n + 1, undefined, { failureClass }), on)).toBe('ignored');
    });
    expect(state).toMatchObject({ buffer: [], ignored: classes.length });
    for (const [n, failureClass] of ['code_defect', 'context_problem', 'replan'].entries())
      expect(acceptFailure(state, failure(10 + n, undefined, { failureClass }), on)).toBe('buffered');
    // A history recorded before the rule replays as it ran.
    expect(
      acceptFailure(state, failure(20, undefined, { failureClass: 'model_problem' }), on, { learnableOnly: false }),
    ).toBe('buffered');
  });

  it('buffers a failure of a learning role under its workflow-attempt id', () => {
    const state = createLearningState('p', 'coder');
    expect(acceptFailure(state, failure(1), on)).toBe('buffered');
    expect(state.buffer).toEqual([{ ...failure(1), id: 'task-p-t1#1' }]);
    expect(state.received).toBe(1);
  });

  it('only counts a failure the gate refuses', () => {
    const state = createLearningState('p', 'coder');
    expect(acceptFailure(state, failure(1), { enabled: false, roles: ['coder'] })).toBe('ignored');
    expect(state).toMatchObject({ buffer: [], ignored: 1, received: 1 });
  });

  it('does not buffer the same workflow attempt twice, even after its group was cleared', () => {
    const state = createLearningState('p', 'coder');
    acceptFailure(state, failure(1), on);
    acceptFailure(state, failure(2), on);
    recordSkillWritten(
      state,
      groupOf(state.buffer),
      { id: 's', path: '/s.md', pattern: 'x', sourceWorkflowIds: [] },
      'now',
    );
    expect(acceptFailure(state, failure(1), on)).toBe('duplicate');
    expect(state).toMatchObject({ buffer: [], duplicates: 1 });
  });

  it('drops the oldest failure once the buffer is full', () => {
    const state = createLearningState('p', 'coder');
    for (let n = 1; n <= learningStateLimits.buffer + 1; n++)
      acceptFailure(state, failure(n, `unrelated words number${n}`), on);
    expect(state.buffer).toHaveLength(learningStateLimits.buffer);
    expect(state.buffer[0]!.taskId).toBe('t2');
  });
});

describe('recordSkillWritten and recordSkillError', () => {
  it('clear only the group members and keep other failures buffered', () => {
    const state = createLearningState('p', 'coder');
    acceptFailure(state, failure(1), on);
    acceptFailure(state, failure(2, 'Add a divide command'), on);
    acceptFailure(state, failure(3), on);
    const group = groupOf(state.buffer);
    recordSkillWritten(
      state,
      group,
      { id: 'abc', path: '/skills/abc.md', pattern: 'cross_dep', sourceWorkflowIds: group.workflowIds },
      'T',
    );
    expect(state.buffer.map((f) => f.taskId)).toEqual(['t2']);
    expect(state.skills).toEqual([
      {
        id: 'abc',
        path: '/skills/abc.md',
        pattern: 'cross_dep',
        sourceWorkflowIds: ['task-p-t1', 'task-p-t3'],
        at: 'T',
      },
    ]);
  });

  it('records an error with the source workflows and clears the group so it does not fire on every signal', () => {
    const state = createLearningState('p', 'coder');
    acceptFailure(state, failure(1), on);
    acceptFailure(state, failure(2), on);
    recordSkillError(state, groupOf(state.buffer), 'MalformedSkill: not JSON', 'T');
    expect(state.buffer).toEqual([]);
    expect(state.errors).toEqual([
      { message: 'MalformedSkill: not JSON', sourceWorkflowIds: ['task-p-t1', 'task-p-t2'], at: 'T' },
    ]);
  });

  it('clips a long error message so the carried state stays small', () => {
    const state = createLearningState('p', 'coder');
    acceptFailure(state, failure(1), on);
    acceptFailure(state, failure(2), on);
    recordSkillError(state, groupOf(state.buffer), `boom ${'x'.repeat(5000)}`, 'T');
    expect(state.errors[0]!.message).toHaveLength(learningStateLimits.errorChars);
  });
});

describe('describeGroupPattern', () => {
  const buffered = (events: FailureEvent[]) => events.map((e) => ({ ...e, id: `${e.workflowId}#1` }));

  it('names the most common pytest pattern of the group', () => {
    const group = groupOf(
      buffered([
        failure(1, undefined, { pattern: 'wrong_constant' }),
        failure(2, undefined, { pattern: 'cross_dep' }),
        failure(3, undefined, { pattern: 'cross_dep' }),
      ]),
    );
    expect(describeGroupPattern(group)).toBe('cross_dep');
  });

  it('falls back to the most common failure class when no member has a known pattern', () => {
    const group = groupOf(buffered([failure(1, undefined, { pattern: 'unknown' }), failure(2)]));
    expect(describeGroupPattern(group)).toBe('context_problem');
  });
});

describe('a state carried through continue-as-new', () => {
  const learned = {
    skills: [],
    history: [{ taskId: 't1', workflowId: 'task-p-t1', attempt: 1, files: ['a.py'], patterns: ['cross_dep'] }],
  };
  const { learned: _learned, ...fields } = createLearningState('p', 'coder');

  it("reads what a run from before the rename carried under 'memory' as learned, and drops the old name", () => {
    const state = readCarriedState({ ...fields, memory: learned });
    expect(state.learned).toEqual(learned);
    expect(state).not.toHaveProperty('memory');
  });

  it('keeps what a run of this release carried, and starts empty when a run carried nothing learned', () => {
    expect(readCarriedState({ ...fields, learned }).learned).toEqual(learned);
    expect(readCarriedState(fields).learned).toEqual({ skills: [], history: [] });
  });
});
