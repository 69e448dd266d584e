import { describe, expect, it } from 'vitest';
import {
  createProjectMemory,
  historyForTask,
  historyRecordOf,
  memoryLimits,
  mergeProvenance,
  mergeSkill,
  recordHistory,
  storeSkill,
  type SkillUpdate,
} from '../../../../domain/learning/memory.js';
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

describe('the failure history in memory', () => {
  it('keeps a re-sent attempt once, caps files per record and drops the oldest records past the limit', () => {
    const memory = createProjectMemory();
    expect(recordHistory(memory, record('a'))).toBe(true);
    expect(recordHistory(memory, record('a'))).toBe(false);
    recordHistory(memory, record('a', 2, { files: Array.from({ length: 20 }, (_, i) => `f${i}.py`) }));
    expect(memory.history).toHaveLength(2);
    expect(memory.history[1]?.files).toHaveLength(memoryLimits.filesPerRecord);
    for (let n = 0; n < memoryLimits.history + 5; n++) recordHistory(memory, record(`t${n}`));
    expect(memory.history).toHaveLength(memoryLimits.history);
    expect(memory.history[0]?.taskId).toBe('t5');
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

describe('skills in memory', () => {
  it('merges provenance as a union in first-seen order, keeping the newest past the limit', () => {
    expect(
      mergeProvenance(
        { sourceWorkflowIds: ['w1', 'w2'], sourceTaskIds: ['a', 'b'], hosts: ['host-a'] },
        { sourceWorkflowIds: ['w2', 'w3'], sourceTaskIds: ['c'], hosts: ['host-b', 'host-a'] },
      ),
    ).toEqual({ sourceWorkflowIds: ['w1', 'w2', 'w3'], sourceTaskIds: ['a', 'b', 'c'], hosts: ['host-a', 'host-b'] });
    const many = Array.from({ length: memoryLimits.provenance + 3 }, (_, i) => `w${i}`);
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

  it('clips long texts so the memory stays small', () => {
    const long = mergeSkill(
      undefined,
      update({ draft: { whenItApplies: 'w '.repeat(2000), whatToDo: 'd'.repeat(9000) } }),
    );
    expect(long.whenItApplies.length).toBe(memoryLimits.whenItAppliesChars);
    expect(long.whatToDo.length).toBe(memoryLimits.whatToDoChars);
  });

  it('stores a skill in place of the one with its id, and drops the oldest past the limit', () => {
    const memory = createProjectMemory();
    storeSkill(memory, skill('a'));
    storeSkill(memory, { ...skill('a'), whatToDo: 'better' });
    expect(memory.skills).toEqual([{ ...skill('a'), whatToDo: 'better' }]);
    for (let n = 0; n < memoryLimits.skills; n++) storeSkill(memory, skill(`s${n}`));
    expect(memory.skills).toHaveLength(memoryLimits.skills);
    expect(memory.skills[0]?.id).toBe('s0');
  });

  it('stays near 100 KB as JSON when every skill and record is as long as the limits allow', () => {
    const memory = createProjectMemory();
    const ids = (prefix: string) => Array.from({ length: 40 }, (_, i) => `${prefix}-${'x'.repeat(40)}-${i}`);
    for (let n = 0; n < memoryLimits.skills + 5; n++) {
      const huge = { whenItApplies: 'w'.repeat(5000), whatToDo: 'd'.repeat(9000) };
      const provenance = { sourceWorkflowIds: ids('task'), sourceTaskIds: ids('t'), hosts: ids('host') };
      storeSkill(memory, mergeSkill(undefined, update({ id: `s${n}`, draft: huge, provenance })));
    }
    for (let n = 0; n < memoryLimits.history + 5; n++)
      recordHistory(memory, record(`task-${'x'.repeat(40)}-${n}`, 1, { files: ids('src/module/file').slice(0, 20) }));
    expect(JSON.stringify(memory).length).toBeLessThan(110_000);
  });
});
