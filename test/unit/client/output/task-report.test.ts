import { describe, expect, it } from 'vitest';
import { formatOutcome, formatState } from '../../../../client/output/task-report.js';
import type { AttemptRecord, TaskOutcome, TaskState } from '../../../../domain/task-state.js';
import { emptyTelemetry, summarizeTelemetry } from '../../../../domain/telemetry.js';
import { failedTestRun } from '../../../support/test-run.js';

const telemetry = summarizeTelemetry([], { tasks: 1, acceptedTasks: 0 });
const failedAttempt: AttemptRecord = {
  attempt: 1,
  status: 'REWORK_REQUIRED',
  startedAt: '2026-01-01T00:00:00Z',
  envRetries: 0,
  failure: {
    node: 'test',
    failureClass: 'split_task',
    reason: `tests failed: 1 failed, 0 errors (tests/test_calc.py::test_add)\n${'x'.repeat(300)}`,
  },
};

describe('formatOutcome', () => {
  it('says how a failed task ended, each attempt on one line, and what to do next', () => {
    const outcome: TaskOutcome = {
      workflowId: 'task-default-fix',
      taskId: 'fix',
      project: 'default',
      status: 'FAILED',
      attempts: [failedAttempt, { ...failedAttempt, attempt: 2, status: 'FAILED' }],
      telemetry,
      recommendation: 'split_task',
      reason: 'retries exhausted',
      turnsConsumed: 4,
    };
    const lines = formatOutcome(outcome).split('\n');
    expect(lines[0]).toBe('task-default-fix: FAILED after 2 attempts: retries exhausted');
    expect(lines[1]).toBe('recommendation: split_task');
    expect(lines[2]).toMatch(/^\s+attempt\s+status\s+node\s+class\s+reason$/);
    expect(lines[3]).toMatch(
      /^\s+1\s+REWORK_REQUIRED\s+test\s+split_task\s+tests failed: 1 failed, 0 errors \(tests\/test_calc\.py::test_add\)$/,
    );
    expect(lines[4]).toMatch(/^\s+2\s+FAILED\s+test/);
    expect(lines[5]).toMatch(/^telemetry: 0 model requests/);
    // It ends with what to run next.
    expect(lines.at(-1)).toBe(
      'next: the task is too big for one change: split it into smaller tasks (a tasks file: taskloop schedule)',
    );
    const defect = formatOutcome({ ...outcome, recommendation: 'code_defect' }).split('\n');
    expect(defect.at(-1)).toMatch(/^next: taskloop retry task-default-fix --hint "[^"]+"/);
  });

  it('shows each candidate an attempt set aside, why and what it spent, then the one it kept', () => {
    const spent = { ...emptyTelemetry(), modelRequests: 3, inputTokens: 900, outputTokens: 100 };
    const passed: AttemptRecord = {
      attempt: 1,
      status: 'PASSED',
      startedAt: '2026-01-01T00:00:00Z',
      envRetries: 0,
      candidate: 2,
      candidates: [
        {
          candidate: 1,
          startedAt: '2026-01-01T00:00:00Z',
          endedAt: '2026-01-01T00:00:42Z',
          coderSpent: spent,
          test: {
            outcome: 'failed',
            counts: { total: 4, passed: 3, failed: 1, errors: 0, skipped: 0 },
            exitCode: 1,
            durationMs: 900,
          },
          failure: { node: 'test', failureClass: 'code_defect', reason: 'tests failed: 1 failed' },
        },
      ],
    };
    const outcome: TaskOutcome = {
      workflowId: 'task-default-fix',
      taskId: 'fix',
      project: 'default',
      status: 'COMPLETED',
      attempts: [passed],
      telemetry,
      turnsConsumed: 4,
    };
    const lines = formatOutcome(outcome).split('\n');
    expect(lines).toContain(
      'attempt 1: candidate 1 set aside at test (1 of 4 tests failing), 3 model requests, 1000 tokens, 42 s: tests failed: 1 failed',
    );
    expect(lines).toContain('attempt 1: candidate 2 kept');
    // When no draw passed, the last one's failure is the attempt's own: said so, not left as a bare 'ended on'.
    const failed = formatOutcome({ ...outcome, status: 'FAILED', attempts: [{ ...passed, status: 'FAILED' }] });
    expect(failed.split('\n')).toContain(
      "attempt 1: candidate 2 failed too, the last drawn: its failure is the attempt's",
    );
  });

  it('names the git-ignored files the test node removed, under the attempts', () => {
    const test = failedTestRun({ ignoredRemoved: ['tests/conftest.py', 'scratch'] });
    const outcome: TaskOutcome = {
      workflowId: 'task-default-fix',
      taskId: 'fix',
      project: 'default',
      status: 'FAILED',
      attempts: [
        { ...failedAttempt, test },
        { ...failedAttempt, attempt: 2, status: 'FAILED' },
      ],
      telemetry,
      turnsConsumed: 4,
    };
    const lines = formatOutcome(outcome).split('\n');
    expect(lines[3]).toMatch(/^\s+2\s+FAILED\s+test/);
    expect(lines[4]).toBe('attempt 1: removed before its tests, as git ignores them: tests/conftest.py, scratch');
    expect(lines[5]).toMatch(/^telemetry:/);
  });

  it('says when the model that answered is not the one asked for, and counts failed requests', () => {
    const coder = {
      status: 'max_steps' as const,
      summary: '',
      changedFiles: [],
      telemetry: { ...emptyTelemetry(), modelRequests: 3, failedModelRequests: 2 },
      turnsConsumed: 1,
      answeredBy: ['gemma-3-270m-it-Q4_K_M.gguf'],
    };
    const outcome: TaskOutcome = {
      workflowId: 'task-default-fix',
      taskId: 'fix',
      project: 'default',
      status: 'FAILED',
      attempts: [{ ...failedAttempt, coder, coderModel: 'openai:gpt-4o' }],
      telemetry: summarizeTelemetry([coder.telemetry], { tasks: 1, acceptedTasks: 0 }),
      turnsConsumed: 1,
    };
    const lines = formatOutcome(outcome).split('\n');
    expect(lines).toContain('attempt 1: asked for openai:gpt-4o, answered by gemma-3-270m-it-Q4_K_M.gguf');
    expect(lines.at(-1)).toMatch(/^telemetry: 3 model requests \(2 failed\), patches/);
  });

  it('names the commit of a completed task', () => {
    const outcome: TaskOutcome = {
      workflowId: 'task-default-fix',
      taskId: 'fix',
      project: 'default',
      status: 'COMPLETED',
      attempts: [{ ...failedAttempt, status: 'PASSED', failure: undefined }],
      commit: { sha: '0123456789abcdef0123', branch: 'taskloop/fix', created: true },
      telemetry,
      turnsConsumed: 2,
    };
    expect(formatOutcome(outcome).split('\n')[0]).toBe(
      'task-default-fix: COMPLETED after 1 attempt; commit 0123456789ab on taskloop/fix',
    );
  });
});

describe('formatState', () => {
  const state: TaskState = {
    workflowId: 'task-default-fix',
    taskId: 'fix',
    project: 'default',
    goal: 'Fix add\nmore detail',
    status: 'RUNNING',
    phase: 'code',
    attempt: 2,
    paused: true,
    attempts: [
      failedAttempt,
      { attempt: 2, status: 'RUNNING', startedAt: '2026-01-01T00:01:00Z', envRetries: 0, hint: 'use +' },
    ],
    events: [],
    telemetry,
    turnsConsumed: 2,
  };

  it('shows status, phase, attempt, a pending pause, the goal and the attempts', () => {
    const lines = formatState(state).split('\n');
    expect(lines[0]).toBe(
      'task-default-fix: RUNNING (pause requested: stops before its next node), phase code, attempt 2',
    );
    expect(lines[1]).toBe('goal: Fix add');
    expect(lines[4]).toMatch(/^\s+2\s+RUNNING\s+hint: use \+$/);
  });

  it('tells how to give a hint when the task waits for one', () => {
    expect(formatState({ ...state, paused: false, status: 'WAITING_FOR_HINT' })).toContain(
      'taskloop retry task-default-fix --hint',
    );
  });
});
