import { describe, expect, it } from 'vitest';
import { deriveLessons } from '../../../../domain/learning/lessons.js';
import type { RunTask } from '../../../../domain/learning/finished-task.js';
import { task } from './finished-task-fixture.js';
import { shortHash } from '../../../../domain/learning/sha256.js';

const contracts = (status: RunTask['status'], counts: number[], prefix: string): RunTask[] =>
  counts.map((contractCount, i) => task(`${prefix}${i}`, status, { contractCount }));

describe('deriveLessons: correlations', () => {
  it('states how many times more contracts failed tasks had', () => {
    // Failed: 4, 4 -> 4.0; converged: 1, 2, 2, 2, 1 -> 1.6; 4 / 1.6 = 2.5.
    const lessons = deriveLessons([
      ...contracts('FAILED', [4, 4], 'f'),
      ...contracts('COMPLETED', [1, 2, 2, 2, 1], 'c'),
    ]);
    expect(lessons).toEqual([
      {
        id: shortHash('correlation\nFailed tasks had 2.5x more contracts on average (4.0 vs 1.6)'),
        category: 'correlation',
        text: 'Failed tasks had 2.5x more contracts on average (4.0 vs 1.6)',
        evidence: { failedMean: 4, convergedMean: 1.6, failedTasks: 2, convergedTasks: 5, ratio: 2.5 },
      },
    ]);
  });

  it('needs a ratio of at least 1.5', () => {
    expect(deriveLessons([...contracts('FAILED', [3], 'f'), ...contracts('COMPLETED', [2], 'c')])).toHaveLength(1);
    expect(deriveLessons([...contracts('FAILED', [2.9], 'f'), ...contracts('COMPLETED', [2], 'c')])).toEqual([]);
  });

  it('needs both groups, and ignores skipped and cancelled tasks', () => {
    expect(deriveLessons(contracts('FAILED', [9, 9], 'f'))).toEqual([]);
    expect(
      deriveLessons([
        ...contracts('FAILED', [9], 'f'),
        ...contracts('SKIPPED', [1], 's'),
        ...contracts('CANCELLED', [1], 'x'),
      ]),
    ).toEqual([]);
  });

  it('states the means without a ratio when converged tasks averaged zero', () => {
    const [lesson] = deriveLessons([...contracts('FAILED', [2], 'f'), ...contracts('COMPLETED', [0], 'c')]);
    expect(lesson!.text).toBe('Failed tasks had more contracts on average (2.0 vs 0.0)');
    expect(lesson!.evidence).not.toHaveProperty('ratio');
  });

  it('compares test counts and sizes too', () => {
    const lessons = deriveLessons([
      task('f', 'FAILED', { testCount: 12, sizeLines: 400 }),
      task('c', 'COMPLETED', { testCount: 4, sizeLines: 300 }),
    ]);
    expect(lessons.map((l) => l.text)).toEqual(['Failed tasks had 3.0x more tests on average (12.0 vs 4.0)']);
  });
});

describe('deriveLessons: reliability of simple tasks', () => {
  const simple = (id: string, status: RunTask['status']) => task(id, status, { contractCount: 1, sizeLines: 50 });

  it('notes that simple tasks (at most 1 contract and 50 lines) all completed, from two of them', () => {
    const lessons = deriveLessons([
      simple('a', 'COMPLETED'),
      simple('b', 'COMPLETED'),
      task('c', 'COMPLETED', { contractCount: 2, sizeLines: 10 }),
    ]);
    expect(lessons).toMatchObject([{ category: 'reliability', evidence: { simpleTasks: 2, completed: 2 } }]);
  });

  it('says nothing with one simple task, or when a simple task failed', () => {
    expect(
      deriveLessons([simple('a', 'COMPLETED'), task('b', 'COMPLETED', { contractCount: 1, sizeLines: 51 })]),
    ).toEqual([]);
    expect(
      deriveLessons([simple('a', 'COMPLETED'), simple('b', 'COMPLETED'), simple('c', 'FAILED')]).map((l) => l.category),
    ).not.toContain('reliability');
  });
});

describe('deriveLessons: systemic pattern', () => {
  const failures = (patterns: string[]) => patterns.map((p, i) => task(`f${i}`, 'FAILED', { patterns: [p] }));

  it('calls a pattern above 70% of failures systemic', () => {
    const lessons = deriveLessons(failures([...Array<string>(8).fill('cross_dep'), 'unknown', 'api_mismatch']));
    expect(lessons).toMatchObject([
      {
        category: 'systemic',
        text: 'cross_dep caused 8 of 10 failures (80%): a systemic issue to fix at its source, not task by task',
        evidence: { count: 8, total: 10, share: 0.8 },
      },
    ]);
  });

  it('does not call exactly 70% dominant', () => {
    expect(
      deriveLessons(failures([...Array<string>(7).fill('cross_dep'), 'unknown', 'unknown', 'api_mismatch'])),
    ).toEqual([]);
  });

  it('needs at least two failures', () => {
    expect(deriveLessons(failures(['cross_dep']))).toEqual([]);
    expect(deriveLessons(failures(['cross_dep', 'cross_dep']))).toHaveLength(1);
  });
});

describe('deriveLessons: ids and order', () => {
  const tasks: RunTask[] = [
    task('a', 'COMPLETED', { contractCount: 1, sizeLines: 20 }),
    task('b', 'COMPLETED', { contractCount: 1, sizeLines: 30 }),
    task('c', 'FAILED', { contractCount: 5, sizeLines: 400, patterns: ['wrong_constant', 'wrong_constant'] }),
    task('d', 'FAILED', { contractCount: 3, sizeLines: 90, patterns: ['wrong_constant'] }),
  ];

  it('gives the same lessons, ids and order across calls and input orders', () => {
    const first = deriveLessons(tasks);
    expect(first.map((l) => l.category)).toEqual(['correlation', 'correlation', 'reliability', 'systemic']);
    expect(deriveLessons(tasks)).toEqual(first);
    expect(deriveLessons([...tasks].reverse())).toEqual(first);
    expect(deriveLessons([tasks[2]!, tasks[0]!, tasks[3]!, tasks[1]!])).toEqual(first);
  });

  it('derives each id from the category and text', () => {
    for (const lesson of deriveLessons(tasks)) expect(lesson.id).toBe(shortHash(`${lesson.category}\n${lesson.text}`));
  });
});
