import { describe, expect, it } from 'vitest';
import { keepMemoryRead, takeKeptMemoryRead } from '../../../../activities/learning/project-memory.js';
import { createProjectMemory } from '../../../../domain/learning/memory.js';

const key = (attempt: number, extra: Partial<{ runId: string; project: string }> = {}) => ({
  runId: extra.runId ?? 'run-1',
  workflowId: 'task-p-kept',
  attempt,
  project: extra.project ?? 'p',
});

describe("the claim's read of the project memory, kept for the attempt's coder", () => {
  it('is taken once, by the same run, attempt and project only', () => {
    const memory = createProjectMemory();
    keepMemoryRead(key(1), memory);
    expect(takeKeptMemoryRead(key(2))).toBeUndefined();
    expect(takeKeptMemoryRead(key(1, { runId: 'run-2' }))).toBeUndefined();
    expect(takeKeptMemoryRead(key(1, { project: 'other' }))).toBeUndefined();
    expect(takeKeptMemoryRead(key(1))).toBe(memory);
    expect(takeKeptMemoryRead(key(1))).toBeUndefined();
  });

  it('is not taken once it is older than a minute: the coder reads the memory then', () => {
    const memory = createProjectMemory();
    keepMemoryRead(key(3), memory, 1_000);
    expect(takeKeptMemoryRead(key(3), 1_000 + 61_000)).toBeUndefined();
    keepMemoryRead(key(4), memory, 1_000);
    expect(takeKeptMemoryRead(key(4), 1_000 + 59_000)).toBe(memory);
  });

  it('keeps at most 256 reads: the oldest untaken ones go first', () => {
    const now = Date.now();
    for (let attempt = 100; attempt < 100 + 300; attempt += 1) keepMemoryRead(key(attempt), createProjectMemory(), now);
    expect(takeKeptMemoryRead(key(100), now)).toBeUndefined();
    expect(takeKeptMemoryRead(key(100 + 299), now)).toBeDefined();
    expect(takeKeptMemoryRead(key(100 + 300 - 255), now)).toBeDefined();
  });
});
