import { describe, expect, it } from 'vitest';
import { keepLearningRead, takeKeptLearningRead } from '../../../../activities/learning/read-project-learning.js';
import { createProjectLearning } from '../../../../domain/learning/project-learning.js';

const key = (attempt: number, extra: Partial<{ runId: string; project: string }> = {}) => ({
  runId: extra.runId ?? 'run-1',
  workflowId: 'task-p-kept',
  attempt,
  project: extra.project ?? 'p',
});

describe("the claim's read of what the project learned, kept for the attempt's coder", () => {
  it('is taken once, by the same run, attempt and project only', () => {
    const learned = createProjectLearning();
    keepLearningRead(key(1), learned);
    expect(takeKeptLearningRead(key(2))).toBeUndefined();
    expect(takeKeptLearningRead(key(1, { runId: 'run-2' }))).toBeUndefined();
    expect(takeKeptLearningRead(key(1, { project: 'other' }))).toBeUndefined();
    expect(takeKeptLearningRead(key(1))).toBe(learned);
    expect(takeKeptLearningRead(key(1))).toBeUndefined();
  });

  it('is not taken once it is older than a minute: the coder reads it again then', () => {
    const learned = createProjectLearning();
    keepLearningRead(key(3), learned, 1_000);
    expect(takeKeptLearningRead(key(3), 1_000 + 61_000)).toBeUndefined();
    keepLearningRead(key(4), learned, 1_000);
    expect(takeKeptLearningRead(key(4), 1_000 + 59_000)).toBe(learned);
  });

  it('keeps at most 256 reads: the oldest untaken ones go first', () => {
    const now = Date.now();
    for (let attempt = 100; attempt < 100 + 300; attempt += 1)
      keepLearningRead(key(attempt), createProjectLearning(), now);
    expect(takeKeptLearningRead(key(100), now)).toBeUndefined();
    expect(takeKeptLearningRead(key(100 + 299), now)).toBeDefined();
    expect(takeKeptLearningRead(key(100 + 300 - 255), now)).toBeDefined();
  });
});
