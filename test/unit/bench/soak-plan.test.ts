import { describe, expect, it } from 'vitest';
import { planSoak } from '../../../bench/soak/plan.js';

describe('the soak plan', () => {
  it('spreads the tasks over the projects, the first holding half, with every kind and its expected state', () => {
    const tasks = planSoak(100, 4, 's');
    expect(tasks).toHaveLength(100);
    expect(tasks.filter((task) => task.project === 's-p1')).toHaveLength(50);
    const kinds = new Set(tasks.map((task) => task.kind));
    expect([...kinds].sort()).toEqual(['dependant', 'fail', 'pass', 'retry', 'skipped']);
    for (const task of tasks.filter((candidate) => candidate.kind === 'skipped')) {
      const dependency = tasks.find((other) => other.project === task.project && other.id === task.dependsOn?.[0]);
      expect(dependency?.expected).toBe('FAILED');
    }
    for (const task of tasks.filter((candidate) => candidate.kind === 'dependant')) {
      const dependency = tasks.find((other) => other.project === task.project && other.id === task.dependsOn?.[0]);
      expect(dependency?.expected).toBe('COMPLETED');
    }
  });
});
