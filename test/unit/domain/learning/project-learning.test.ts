import { describe, expect, it } from 'vitest';
import {
  createProjectLearning,
  historyForTask,
  historyRecordOf,
  projectLearningLimits,
  mergeProvenance,
  mergeSkill,
  recordHistory,
  storeSkill,
  type SkillUpdate,
} from '../../../../domain/learning/project-learning.js';
import type { Skill } from '../../../../domain/learning/skills.js';

const record = (taskId: string, attempt = 1, extra: { files?: string[]; host?: string } = {}) => ({
  taskId,
  workflowId: `task-p-${taskId}`,
  attempt,
  files: extra.files ?? ['calc.py'],
  patterns: ['wrong_constant'],
  ...(extra.host === undefined ? {} : { host: extra.host }),
});

const update = (overrides: Partial<SkillUpdate> = {}): SkillUpdate => ({
  id: 'abc',
  pattern: 'wrong_constant',
  draft: { whenItApplies: 'fix calc.mean', whatToDo: 'Use true division.' },
  writtenBy: 'model',
  provenance: { sourceWorkflowIds: ['task-p-a'], sourceTaskIds: ['a'], hosts: ['host-a'] },
  now: '2026-11-30T00:00:00Z',
  ...overrides,
});

const skill = (id: string): Skill => ({
  id,
  pattern: 'p',
  whenItApplies: 'w',
  whatToDo: 'd',
  sourceWorkflowIds: [],
  createdAt: 'T',
});

describe('the learned failure history', () => {
  it('keeps a re-sent attempt once, caps files per record and drops the oldest records past the limit', () => {
    const learned = createProjectLearning();
    expect(recordHistory(learned, record('a'))).toBe(true);
    expect(recordHistory(learned, record('a'))).toBe(false);
    recordHistory(learned, record('a', 2, { files: Array.from({ length: 20 }, (_, i) => `f${i}.py`) }));
    expect(learned.history).toHaveLength(2);
    expect(learned.history[1]?.files).toHaveLength(projectLearningLimits.filesPerRecord);
    for (let n = 0; n < projectLearningLimits.history + 5; n++) recordHistory(learned, record(`t${n}`));
    expect(learned.history).toHaveLength(projectLearningLimits.history);
    expect(learned.history[0]?.taskId).toBe('t5');
  });

  it("gives a task the other tasks' failures, one entry per task, whichever host they failed on", () => {
    const records = [
      record('a', 1, { host: 'host-a' }),
      record('b', 1, { host: 'host-b', files: ['util.py'] }),
      record('a', 2, { host: 'host-b', files: ['util.py'] }),
    ];
    expect(historyForTask(records, 'b')).toEqual([
      { taskId: 'a', files: ['calc.py', 'util.py'], patterns: ['wrong_constant', 'wrong_constant'] },
    ]);
    expect(historyForTask(records, 'z').map((entry) => entry.taskId)).toEqual(['a', 'b']);
  });

  it('records a failure event with a pattern, with its host and files, and none without a pattern', () => {
    const event = {
      workflowId: 'task-p-a',
      taskId: 'a',
      attempt: 1,
      description: 'Fix mean',
      failureClass: 'code_defect',
      reason: '',
      evidence: '',
      host: 'host-a',
      files: ['calc.py'],
    };
    expect(historyRecordOf({ ...event, pattern: 'wrong_constant' })).toEqual(record('a', 1, { host: 'host-a' }));
    expect(historyRecordOf(event)).toBeUndefined();
  });
});

describe('learned skills', () => {
  it('merges provenance as a union in first-seen order, keeping the newest past the limit', () => {
    expect(
      mergeProvenance(
        { sourceWorkflowIds: ['w1', 'w2'], sourceTaskIds: ['a', 'b'], hosts: ['host-a'] },
        { sourceWorkflowIds: ['w2', 'w3'], sourceTaskIds: ['c'], hosts: ['host-b', 'host-a'] },
      ),
    ).toEqual({ sourceWorkflowIds: ['w1', 'w2', 'w3'], sourceTaskIds: ['a', 'b', 'c'], hosts: ['host-a', 'host-b'] });
    const many = Array.from({ length: projectLearningLimits.provenance + 3 }, (_, i) => `w${i}`);
    const merged = mergeProvenance({}, { sourceWorkflowIds: many });
    expect(merged.sourceWorkflowIds).toEqual(many.slice(3));
    expect(merged.hosts).toEqual([]);
  });

  it('lets a model-written skill replace a distilled one, never the reverse, keeping provenance and creation time', () => {
    const distilled = mergeSkill(
      undefined,
      update({ writtenBy: 'distilled', draft: { whenItApplies: 'x', whatToDo: 'y' } }),
    );
    expect(distilled).toMatchObject({ writtenBy: 'distilled', whatToDo: 'y', createdAt: '2026-11-30T00:00:00Z' });
    const model = mergeSkill(
      distilled,
      update({
        now: 'later',
        provenance: { sourceWorkflowIds: ['task-p-b'], sourceTaskIds: ['b'], hosts: ['host-b'] },
      }),
    );
    expect(model).toEqual({
      id: 'abc',
      pattern: 'wrong_constant',
      whenItApplies: 'fix calc.mean',
      whatToDo: 'Use true division.',
      sourceWorkflowIds: ['task-p-a', 'task-p-b'],
      sourceTaskIds: ['a', 'b'],
      hosts: ['host-a', 'host-b'],
      createdAt: '2026-11-30T00:00:00Z',
      writtenBy: 'model',
    });
    const again = mergeSkill(model, update({ writtenBy: 'distilled', draft: { whenItApplies: 'x', whatToDo: 'y' } }));
    expect(again).toMatchObject({ writtenBy: 'model', whatToDo: 'Use true division.' });
  });

  it('clips long texts so what is learned stays small', () => {
    const long = mergeSkill(
      undefined,
      update({ draft: { whenItApplies: 'w '.repeat(2000), whatToDo: 'd'.repeat(9000) } }),
    );
    expect(long.whenItApplies.length).toBe(projectLearningLimits.whenItAppliesChars);
    expect(long.whatToDo.length).toBe(projectLearningLimits.whatToDoChars);
  });

  it('stores a skill in place of the one with its id, and drops the oldest past the limit', () => {
    const learned = createProjectLearning();
    storeSkill(learned, skill('a'));
    storeSkill(learned, { ...skill('a'), whatToDo: 'better' });
    expect(learned.skills).toEqual([{ ...skill('a'), whatToDo: 'better' }]);
    for (let n = 0; n < projectLearningLimits.skills; n++) storeSkill(learned, skill(`s${n}`));
    expect(learned.skills).toHaveLength(projectLearningLimits.skills);
    expect(learned.skills[0]?.id).toBe('s0');
  });

  it('stays near 100 KB as JSON when every skill and record is as long as the limits allow', () => {
    const learned = createProjectLearning();
    const ids = (prefix: string) => Array.from({ length: 40 }, (_, i) => `${prefix}-${'x'.repeat(40)}-${i}`);
    for (let n = 0; n < projectLearningLimits.skills + 5; n++) {
      const huge = { whenItApplies: 'w'.repeat(5000), whatToDo: 'd'.repeat(9000) };
      const provenance = { sourceWorkflowIds: ids('task'), sourceTaskIds: ids('t'), hosts: ids('host') };
      storeSkill(learned, mergeSkill(undefined, update({ id: `s${n}`, draft: huge, provenance })));
    }
    for (let n = 0; n < projectLearningLimits.history + 5; n++)
      recordHistory(learned, record(`task-${'x'.repeat(40)}-${n}`, 1, { files: ids('src/module/file').slice(0, 20) }));
    expect(JSON.stringify(learned).length).toBeLessThan(110_000);
  });
});
