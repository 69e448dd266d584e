import { describe, expect, it } from 'vitest';
import { validatePlanGraph } from '../../../../domain/project/plan.js';

const task = (id: string, ...dependsOn: string[]) => ({ id, dependsOn });

describe('validatePlanGraph', () => {
  it('returns a topological order that keeps file order where dependencies allow', () => {
    const result = validatePlanGraph([task('a', 'c'), task('b'), task('c'), task('d', 'a', 'b')]);
    expect(result).toEqual({ success: true, order: ['b', 'c', 'a', 'd'] });
  });

  it('keeps file order exactly when there are no dependencies', () => {
    expect(validatePlanGraph([task('z'), task('y'), task('x')])).toEqual({ success: true, order: ['z', 'y', 'x'] });
  });

  it('reports a duplicate id with both indexes', () => {
    const result = validatePlanGraph([task('a'), task('b'), task('c'), task('b')]);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors).toEqual([
      expect.objectContaining({
        kind: 'duplicate',
        taskId: 'b',
        index: 3,
        firstIndex: 1,
        message: expect.stringContaining("duplicate task id 'b' (first at index 1, again at index 3)"),
      }),
    ]);
  });

  it('reports a dependency that is not in the file, naming both tasks', () => {
    const result = validatePlanGraph([task('a'), task('c', 'a', 'x')]);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors).toEqual([
      {
        kind: 'unknown',
        taskId: 'c',
        index: 1,
        dependency: 'x',
        message: "task 'c' depends on 'x', which is not in the file",
      },
    ]);
  });

  it('reports a task that depends on itself', () => {
    const result = validatePlanGraph([task('a', 'a')]);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({
      taskId: 'a',
      dependency: 'a',
      message: expect.stringContaining("task 'a' depends on itself"),
    });
  });

  it('reports a cycle with its path, starting at its earliest task in the file', () => {
    const result = validatePlanGraph([task('x'), task('b', 'c'), task('a', 'b'), task('c', 'a', 'x')]);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({
      taskId: 'b',
      index: 1,
      dependency: 'c',
      message: expect.stringMatching(/^cycle: b -> c -> a -> b/),
    });
  });

  it('reports each of two separate cycles once', () => {
    const result = validatePlanGraph([task('a', 'b'), task('b', 'a'), task('c', 'd'), task('d', 'c')]);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors.map((error) => error.message.split(';')[0])).toEqual([
      'cycle: a -> b -> a',
      'cycle: c -> d -> c',
    ]);
  });
});
