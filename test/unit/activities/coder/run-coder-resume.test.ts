import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadProgress } from '../../../../activities/coder/progress.js';
import { runCoder, type RunCoderInput } from '../../../../activities/coder/run-coder.js';
import { createModelProvider } from '../../../../activities/models/router.js';
import type { CompletionRequest, ModelProvider } from '../../../../activities/models/types.js';
import { call, createTempRepo, writeScript, type TempRepo } from './fixtures.js';

let t: TempRepo;
beforeEach(async () => {
  t = await createTempRepo({ 'calc.py': 'def add(a, b):\n    return a - b\n' });
});
afterEach(() => t.cleanup());

const turns = [
  call('read_file', { path: 'calc.py' }),
  call('replace_in_file', { path: 'calc.py', old: 'return a - b', new: 'return a + b' }),
  call('read_file', { path: 'calc.py' }),
  call('finish', { summary: 'fixed' }),
];

/** A scripted provider that records each request and can be told to crash (throw) on a given call. */
async function recordingProvider(
  startTurn: number,
  crashOnCall?: number,
): Promise<{ provider: ModelProvider; seen: CompletionRequest[] }> {
  await writeScript(t.base, { coder: turns });
  const inner = await createModelProvider('scripted:script.json', { role: 'coder', startTurn, cwd: t.base });
  const seen: CompletionRequest[] = [];
  return {
    seen,
    provider: {
      spec: inner.spec,
      complete: (request) => {
        seen.push(request);
        if (seen.length === crashOnCall) return Promise.reject(new Error('worker lost'));
        return inner.complete(request);
      },
    },
  };
}

const baseInput = (provider: ModelProvider): RunCoderInput => ({
  worktreePath: t.repo,
  goal: 'Fix add',
  provider,
  maxSteps: 10,
  previousAttempts: [],
  secretValues: [],
  artifactDir: t.artifacts,
  hostId: 'h',
});

describe('runCoder resuming from its saved progress', () => {
  it('continues after the last completed turn without asking the model again for earlier turns', async () => {
    const first = await recordingProvider(0, 3);
    const failure = await runCoder(baseInput(first.provider)).catch((error: unknown) => error);
    // The failed third request is counted, on the failure and in the saved progress.
    expect(failure).toMatchObject({
      message: 'worker lost',
      details: [{ coderTelemetry: { modelRequests: 3, failedModelRequests: 1 } }],
    });

    const saved = await loadProgress(path.join(t.artifacts, 'transcript.json'));
    expect(saved?.progress).toMatchObject({ step: 2, turnsConsumed: 2, changedFiles: ['calc.py'] });
    expect(saved?.progress.telemetry).toMatchObject({ modelRequests: 3, failedModelRequests: 1 });

    const second = await recordingProvider(saved?.progress.turnsConsumed ?? 0);
    const result = await runCoder({ ...baseInput(second.provider), resume: saved });
    expect(result).toMatchObject({ status: 'finished', summary: 'fixed', turnsConsumed: 4, changedFiles: ['calc.py'] });
    expect(result.telemetry).toMatchObject({ modelRequests: 5, failedModelRequests: 1, patchSuccesses: 1 });
    expect(second.seen).toHaveLength(2);
    // The resumed request carries the whole conversation so far, including the first two answered turns.
    expect(second.seen[0]?.messages.filter((m) => m.role === 'assistant')).toHaveLength(2);
    expect(await readFile(path.join(t.repo, 'calc.py'), 'utf8')).toContain('a + b');
  });

  it('returns at once when the saved progress already finished', async () => {
    const first = await recordingProvider(0);
    await runCoder(baseInput(first.provider));
    const saved = await loadProgress(path.join(t.artifacts, 'transcript.json'));
    const second = await recordingProvider(4);
    expect(await runCoder({ ...baseInput(second.provider), resume: saved })).toMatchObject({
      status: 'finished',
      summary: 'fixed',
      turnsConsumed: 4,
    });
    expect(second.seen).toHaveLength(0);
  });

  it('has nothing to resume from when no progress was saved', async () => {
    expect(await loadProgress(path.join(t.artifacts, 'transcript.json'))).toBeUndefined();
  });
});

describe('runCoder within an allowance', () => {
  it('stops before the call that would exceed the model-call allowance, with a budget reason', async () => {
    const { provider, seen } = await recordingProvider(0);
    const result = await runCoder({ ...baseInput(provider), allowance: { modelCalls: 2, tokens: 1_000_000 } });
    expect(result).toMatchObject({
      status: 'budget_exhausted',
      turnsConsumed: 2,
      reason: expect.stringContaining('budget exhausted: model calls'),
    });
    expect(seen).toHaveLength(2);
  });

  it('stops once the tokens used reach the token allowance', async () => {
    const { provider, seen } = await recordingProvider(0);
    const result = await runCoder({ ...baseInput(provider), allowance: { modelCalls: 100, tokens: 1 } });
    expect(result).toMatchObject({
      status: 'budget_exhausted',
      reason: expect.stringContaining('budget exhausted: tokens'),
    });
    expect(seen).toHaveLength(1);
  });
});
