import { describe, expect, it } from 'vitest';
import { chooseAdaptations, describeAdaptation, fileKeys } from '../../../../domain/learning/adaptations.js';
import type { ChooseAdaptationsInput } from '../../../../domain/learning/adaptations.js';
import { makePattern, strategies } from '../../../../domain/learning/patterns/index.js';

/** A task shape that triggers no rule on its own. */
const quiet: ChooseAdaptationsInput = {
  ownPatterns: [],
  history: [],
  taskFiles: ['src/calc/core.py'],
  dependencyCount: 5,
  testsAvailable: 3,
  functionBodyCoverage: 0.5,
};

const strategiesOf = (input: Partial<ChooseAdaptationsInput>) =>
  chooseAdaptations({ ...quiet, ...input }).map((a) => a.strategy);

describe('chooseAdaptations: task shape', () => {
  it('chooses nothing at the edge values (5 dependencies, 3 tests, coverage 0.5)', () => {
    expect(chooseAdaptations(quiet)).toEqual([]);
  });

  it('expands dependency context above 5 dependencies', () => {
    expect(chooseAdaptations({ ...quiet, dependencyCount: 6 })).toEqual([
      { strategy: 'expand_dependency_context', reason: 'the task has 6 dependencies', source: 'task_shape' },
    ]);
  });

  it('shows more tests below 3 available tests', () => {
    expect(strategiesOf({ testsAvailable: 2 })).toEqual(['increase_tests_shown']);
  });

  it('includes source excerpts below 50% function-body coverage', () => {
    expect(chooseAdaptations({ ...quiet, functionBodyCoverage: 0.49 })).toEqual([
      {
        strategy: 'include_source_excerpt',
        reason: 'only 49% of the relevant function bodies are in context',
        source: 'task_shape',
      },
    ]);
  });
});

describe('chooseAdaptations: own attempts', () => {
  it('uses the strategies of earlier patterns first and merges repeated strategies into one reason', () => {
    const ownPatterns = [
      [
        makePattern('wrong_constant', 0.85, ["'a'", "'b'"], 'E assert'),
        makePattern('cross_dep', 0.8, ['numpy'], 'E No module'),
      ],
      [makePattern('wrong_constant', 0.85, ["'c'", "'d'"], 'E assert')],
    ];
    expect(chooseAdaptations({ ...quiet, ownPatterns, dependencyCount: 9 })).toEqual([
      {
        strategy: 'prioritize_constants',
        reason: "attempt 1 failed with wrong_constant on 'a'; also attempt 2 failed with wrong_constant on 'c'",
        source: 'own_attempts',
      },
      {
        strategy: 'expand_dependency_context',
        reason: 'attempt 1 failed with cross_dep on numpy; also the task has 9 dependencies',
        source: 'own_attempts',
      },
    ]);
  });

  it('maps signature and infrastructure failures to their strategies', () => {
    const ownPatterns = [
      [makePattern('api_mismatch', 0.9, ['add'], 'x'), makePattern('test_infra', 0.95, ['tests'], 'y')],
    ];
    expect(strategiesOf({ ownPatterns })).toEqual(['fix_signatures', 'increase_tests_shown']);
  });
});

describe('chooseAdaptations: history of similar tasks', () => {
  const entry = (taskId: string, files: string[], patterns: string[]) => ({ taskId, files, patterns });

  it('expands dependency context after two cross_dep failures in tasks sharing a file or module', () => {
    const history = [
      entry('t1', ['src/calc/core.py'], ['cross_dep']),
      entry('t2', ['calc.core'], ['cross_dep']),
      entry('t3', ['web/app.py'], ['cross_dep']),
    ];
    expect(chooseAdaptations({ ...quiet, history })).toEqual([
      {
        strategy: 'expand_dependency_context',
        reason: '2 cross_dep failures in similar tasks (t1, t2)',
        source: 'history',
      },
    ]);
  });

  it('does not adapt on one similar failure, nor on failures of unrelated tasks', () => {
    const history = [
      entry('t1', ['src/calc/core.py'], ['cross_dep']),
      entry('t3', ['web/app.py'], ['cross_dep', 'cross_dep']),
    ];
    expect(chooseAdaptations({ ...quiet, history })).toEqual([]);
  });

  it('counts every failure of a similar task, so one task failing twice is enough', () => {
    const history = [entry('t1', ['./src/calc/core.py'], ['wrong_constant', 'wrong_constant'])];
    expect(chooseAdaptations({ ...quiet, history })).toEqual([
      {
        strategy: 'prioritize_constants',
        reason: '2 wrong_constant failures in similar tasks (t1)',
        source: 'history',
      },
    ]);
  });
});

describe('fileKeys', () => {
  it('gives a Python file its path and dotted module, also without src.', () => {
    expect(fileKeys('src/calc/core.py')).toEqual(['src/calc/core.py', 'src.calc.core', 'calc.core']);
    expect(fileKeys('calc\\__init__.py')).toEqual(['calc/__init__.py', 'calc']);
    expect(fileKeys('README.md')).toEqual(['README.md']);
  });
});

describe('describeAdaptation', () => {
  it('gives explicit instructions with the reason', () => {
    const text = describeAdaptation({
      strategy: 'prioritize_constants',
      reason: "attempt 1 failed with wrong_constant on 'a'",
      source: 'own_attempts',
    });
    expect(text).toMatch(/^Earlier attempts got literal values wrong: copy expected constants exactly from the tests/);
    expect(text).toContain("(Why: attempt 1 failed with wrong_constant on 'a'.)");
  });

  it('has a distinct instruction for every strategy', () => {
    const texts = strategies.map((strategy) => describeAdaptation({ strategy, reason: 'r', source: 'task_shape' }));
    expect(new Set(texts).size).toBe(strategies.length);
    expect(texts[3]).toContain('exact signatures');
    expect(
      describeAdaptation({
        strategy: 'show_error_location',
        reason: 'attempt 1 failed with syntax_error on m.py:3',
        source: 'own_attempts',
      }),
    ).toMatch(
      /^An earlier attempt left a syntax error .* read that file around that line first .*\(Why: attempt 1 failed with syntax_error on m\.py:3\.\)$/,
    );
  });
});
