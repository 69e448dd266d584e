// Samples decided by tests: how each candidate samples, where it lives, when another is drawn, what a loser leaves.
import { describe, expect, it } from 'vitest';
import { artifactDirFor } from '../../../activities/artifacts.js';
import { worktreePathFor } from '../../../activities/git/create-worktree.js';
import {
  drawsAnotherCandidate,
  samplingForCandidate,
  SAMPLE_TEMPERATURE,
  setAsideCandidate,
} from '../../../domain/samples.js';
import { collectModelUsage, type AttemptRecord } from '../../../domain/task-state.js';
import { parseTaskSpec } from '../../../domain/task-spec.js';

const telemetry = (requests: number) => ({
  patchAttempts: 0,
  patchSuccesses: 0,
  patchMismatches: 0,
  writeFileOperations: 0,
  writeFileFallbacks: 0,
  mutationOperations: 0,
  modelRequests: requests,
  inputTokens: 1000 * requests,
  outputTokens: 10 * requests,
});

describe('samplingForCandidate', () => {
  it('leaves the first candidate as the attempt chose, and samples each further one warmer with a seed of its own', () => {
    const base = { temperature: 0, seed: undefined, maxOutputTokens: 512 };
    expect(samplingForCandidate(base, 1, undefined)).toBe(base);
    expect(samplingForCandidate(base, 1, 1)).toBe(base);
    const second = samplingForCandidate(base, 1, 2);
    const third = samplingForCandidate(base, 1, 3);
    expect(second).toEqual({ temperature: SAMPLE_TEMPERATURE, seed: 102, maxOutputTokens: 512 });
    expect(third.seed).toBe(103);
    // A retry's second candidate differs from the first attempt's; a version sampling hotter keeps its temperature.
    expect(samplingForCandidate(base, 2, 2).seed).toBe(202);
    expect(samplingForCandidate({ temperature: 0.9 }, 1, 2).temperature).toBe(0.9);
  });
});

describe('candidate folders', () => {
  it('give each candidate after the first its own worktree and artifact folder; the first keeps the attempt’s', () => {
    expect(worktreePathFor('/w', 'task-p-x', 1)).toBe('/w/worktrees/task-p-x-a1');
    expect(worktreePathFor('/w', 'task-p-x', 1, 1)).toBe('/w/worktrees/task-p-x-a1');
    expect(worktreePathFor('/w', 'task-p-x', 1, 2)).toBe('/w/worktrees/task-p-x-a1c2');
    expect(artifactDirFor('/w', 'task-p-x', 2, 3)).toBe('/w/artifacts/task-p-x/a2c3');
    expect(artifactDirFor('/w', 'task-p-x', 2)).toBe('/w/artifacts/task-p-x/a2');
  });
});

describe('drawsAnotherCandidate', () => {
  const draws = (node: 'code' | 'test' | 'review', failureClass: string, retry: string, candidate = 1, samples = 3) =>
    drawsAnotherCandidate({
      failure: { node, failureClass: failureClass as never },
      retry: retry as never,
      candidate,
      samples,
    });

  it('draws again after a change that failed its tests or a coder run that failed, while samples are left', () => {
    expect(draws('test', 'code_defect', 'new_attempt')).toBe(true);
    expect(draws('code', 'model_problem', 'new_attempt')).toBe(true);
    expect(draws('code', 'split_task', 'fail')).toBe(true);
    expect(draws('test', 'code_defect', 'new_attempt', 3, 3)).toBe(false);
    expect(
      drawsAnotherCandidate({
        failure: { node: 'test', failureClass: 'code_defect' },
        retry: 'new_attempt',
        candidate: 1,
        samples: undefined,
      }),
    ).toBe(false);
  });

  it('keeps a change that passed its tests, and stops on what no other draw can change', () => {
    expect(draws('review', 'code_defect', 'new_attempt')).toBe(false);
    expect(draws('code', 'budget_exhausted', 'fail')).toBe(false);
    expect(draws('code', 'missing_capability', 'fail')).toBe(false);
    expect(draws('test', 'environment_problem', 'fail')).toBe(false);
    expect(draws('test', 'environment_problem', 'reclaim')).toBe(false);
    expect(draws('code', 'intent_ambiguity', 'wait_for_hint')).toBe(false);
  });
});

describe('setAsideCandidate', () => {
  it('moves what the candidate did into candidates, readies the next, and keeps every run priced', () => {
    const record: AttemptRecord = {
      attempt: 1,
      status: 'RUNNING',
      startedAt: '2026-12-06T10:00:00.000Z',
      envRetries: 0,
      hostId: 'h1',
      coder: { status: 'finished', summary: 's', changedFiles: ['a.py'], telemetry: telemetry(2), turnsConsumed: 2 },
      test: {
        outcome: 'failed',
        exitCode: 1,
        counts: { total: 2, passed: 1, failed: 1, errors: 0, skipped: 0 },
        cases: [{ id: 't::a', outcome: 'failed' }],
        casesTruncated: false,
        stdoutExcerpt: 'long output',
        stderrExcerpt: '',
        durationMs: 500,
      },
    } as AttemptRecord;
    const failure = { node: 'test' as const, failureClass: 'code_defect' as const, reason: 'tests failed' };
    setAsideCandidate(record, failure, '2026-12-06T10:01:00.000Z');
    expect(record.candidate).toBe(2);
    expect(record.coder).toBeUndefined();
    expect(record.test).toBeUndefined();
    expect(record.candidates).toEqual([
      {
        candidate: 1,
        startedAt: '2026-12-06T10:00:00.000Z',
        endedAt: '2026-12-06T10:01:00.000Z',
        failure,
        hostId: 'h1',
        coder: expect.objectContaining({ status: 'finished', changedFiles: ['a.py'] }),
        // The full report stays out of history: its outcome and counts are what a loser is shown by.
        test: {
          outcome: 'failed',
          counts: { total: 2, passed: 1, failed: 1, errors: 0, skipped: 0 },
          exitCode: 1,
          durationMs: 500,
        },
      },
    ]);
    record.coder = { status: 'finished', summary: 's', changedFiles: [], telemetry: telemetry(3), turnsConsumed: 3 };
    setAsideCandidate(record, failure, '2026-12-06T10:02:00.000Z');
    expect(record.candidates?.[1]).toMatchObject({ candidate: 2, startedAt: '2026-12-06T10:01:00.000Z' });
    record.coder = { status: 'finished', summary: 's', changedFiles: [], telemetry: telemetry(1), turnsConsumed: 1 };
    const usage = collectModelUsage([record], 'local:m');
    expect(usage.map((u) => u.modelRequests)).toEqual([2, 3, 1]);
  });
});

describe('the spec’s samples', () => {
  const spec = (samples: unknown) =>
    parseTaskSpec({ id: 't', repo: '/r', goal: 'g', models: { coder: 'scripted:x.json' }, samples });
  it('takes 1 to 8 and refuses others, saying what it is and the fix', () => {
    const taken = spec(3);
    expect(taken.success ? taken.data.samples : undefined).toBe(3);
    const refused = spec(0);
    expect(refused.success).toBe(false);
    expect(refused.success ? '' : refused.error).toMatch(
      /samples: expected a whole number from 1 to 8 .*got 0 \(set samples to e.g. 3/,
    );
  });
});
