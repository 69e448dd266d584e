import { describe, expect, it } from 'vitest';
import { planAdaptations, taskFilesOf } from '../../../../domain/learning/attempt-adaptations.js';
import type { AttemptRecord } from '../../../../domain/task-state.js';
import type { FailurePattern } from '../../../../domain/learning/patterns/types.js';
import { failedTestRun } from '../../../support/test-run.js';

const crossDep: FailurePattern = {
  type: 'cross_dep',
  confidence: 0.95,
  symbols: ['helpers'],
  evidence: "ImportError: cannot import name 'x' from 'helpers'",
  strategy: 'expand_dependency_context',
};

function attempt(n: number, patterns: FailurePattern[], changedFiles: string[] = []): AttemptRecord {
  return {
    attempt: n,
    status: 'REWORK_REQUIRED',
    startedAt: '2026-11-29T00:00:00Z',
    envRetries: 0,
    coder: {
      status: 'finished',
      summary: '',
      changedFiles,
      turnsConsumed: 1,
      telemetry: {
        patchAttempts: 0,
        patchSuccesses: 0,
        patchMismatches: 0,
        writeFileOperations: 0,
        writeFileFallbacks: 0,
        mutationOperations: 0,
        modelRequests: 1,
        inputTokens: 0,
        outputTokens: 0,
      },
    },
    test: failedTestRun({ patterns }),
  };
}

describe('the adaptations of the next attempt', () => {
  it('takes the files a task is about from its changes and from the paths and module names in its goal', () => {
    expect(taskFilesOf('Fix calc.mean; see tests/test_calc.py', [attempt(1, [], ['stats.py'])])).toEqual([
      'calc.py',
      'stats.py',
      'tests/test_calc.py',
    ]);
  });

  it('expands the dependency context after a cross_dep failure at attempt 1', () => {
    const adaptations = planAdaptations({ goal: 'Fix add', attempts: [attempt(1, [crossDep])], history: [] });
    expect(adaptations).toEqual([
      {
        strategy: 'expand_dependency_context',
        reason: 'attempt 1 failed with cross_dep on helpers',
        source: 'own_attempts',
      },
    ]);
  });

  it('prioritises constants for a new task after two wrong_constant failures of similar tasks, and only of similar ones', () => {
    const history = [
      { taskId: 'a', files: ['calc.py'], patterns: ['wrong_constant'] },
      { taskId: 'b', files: ['calc.py'], patterns: ['wrong_constant'] },
      { taskId: 'c', files: ['other.py'], patterns: ['cross_dep', 'cross_dep'] },
    ];
    const adaptations = planAdaptations({ goal: 'Fix calc.mean', attempts: [], history });
    expect(adaptations.map((a) => [a.strategy, a.source])).toEqual([['prioritize_constants', 'history']]);
    expect(planAdaptations({ goal: 'Fix stats.spread', attempts: [], history })).toEqual([]);
  });

  it('adapts nothing for a first attempt without history', () => {
    expect(planAdaptations({ goal: 'Fix add', attempts: [], history: [] })).toEqual([]);
  });
});
