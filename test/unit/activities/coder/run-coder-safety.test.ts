import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCoder, type RunCoderInput } from '../../../../activities/coder/run-coder.js';
import { createScriptedProvider, parseScript } from '../../../../activities/models/scripted.js';
import type { ChatMessage, ModelProvider } from '../../../../activities/models/types.js';
import { call, createTempRepo, type TempRepo } from './fixtures.js';

let t: TempRepo;
let outside: string;
beforeEach(async () => {
  t = await createTempRepo({ 'app.py': 'x = 1\n' });
  outside = path.join(t.base, 'outside');
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.py'), 'SECRET = 1\n');
});
afterEach(() => t.cleanup());

function inputWith(provider: ModelProvider, overrides: Partial<RunCoderInput> = {}): RunCoderInput {
  return {
    worktreePath: t.repo,
    goal: 'g',
    provider,
    maxSteps: 20,
    previousAttempts: [],
    secretValues: [],
    artifactDir: t.artifacts,
    hostId: 'h',
    ...overrides,
  };
}

function scripted(turns: unknown[]): ModelProvider {
  const parsed = parseScript({ coder: turns });
  if (!parsed.success) throw new Error(parsed.error);
  return createScriptedProvider({ file: 'inline.json', script: parsed.data });
}

describe('runCoder safety', () => {
  it('refuses every escape from the worktree as a tool reply and writes nothing outside', async () => {
    const marker = `taskloop-escape-${path.basename(t.base)}.txt`;
    await symlink(os.tmpdir(), path.join(t.repo, 'tmplink'));
    await symlink(outside, path.join(t.repo, 'outlink'));
    const gitConfig = await readFile(path.join(t.repo, '.git', 'config'), 'utf8');
    const attempts = [
      call('write_file', { path: '../x.py', content: 'bad' }),
      call('read_file', { path: '/etc/passwd' }),
      call('write_file', { path: '.git/config', content: 'bad' }),
      call('write_file', { path: `tmplink/${marker}`, content: 'bad' }),
      call('write_file', { path: 'outlink/new.py', content: 'bad' }),
      call('replace_in_file', { path: 'outlink/secret.py', old: 'SECRET = 1', new: 'SECRET = 2' }),
      call('read_file', { path: 'outlink/secret.py' }),
      call('finish', { summary: 'tried' }),
    ];
    const result = await runCoder(inputWith(scripted(attempts)));

    const transcript = JSON.parse(await readFile(result.transcript?.path ?? '', 'utf8')) as ChatMessage[];
    const replies = transcript.filter((m) => m.role === 'tool' && m.name !== 'finish');
    expect(replies).toHaveLength(7);
    for (const reply of replies) expect(reply.content).toMatch(/^error: path '.*' refused: /);
    expect(existsSync(path.join(t.base, 'x.py'))).toBe(false);
    expect(existsSync(path.join(os.tmpdir(), marker))).toBe(false);
    expect(await readdir(outside)).toEqual(['secret.py']);
    expect(await readFile(path.join(outside, 'secret.py'), 'utf8')).toBe('SECRET = 1\n');
    expect(await readFile(path.join(t.repo, '.git', 'config'), 'utf8')).toBe(gitConfig);
    expect(result).toMatchObject({ status: 'finished', changedFiles: [] });
    expect(result.telemetry).toMatchObject({
      patchAttempts: 1,
      patchMismatches: 1,
      writeFileOperations: 0,
      mutationOperations: 0,
    });
  });

  it('lets an infrastructure ApplicationFailure from the provider propagate, carrying the requests spent', async () => {
    const failing: ModelProvider = {
      spec: 'test:failing',
      complete: () =>
        Promise.reject(
          ApplicationFailure.create({ type: 'ProviderAuthFailed', message: 'bad key', nonRetryable: true }),
        ),
    };
    await expect(runCoder(inputWith(failing))).rejects.toMatchObject({
      type: 'ProviderAuthFailed',
      nonRetryable: true,
      details: [{ coderTelemetry: { modelRequests: 1, failedModelRequests: 1 } }],
    });
  });

  it('stops with the abort reason when cancelled between turns', async () => {
    const controller = new AbortController();
    const provider = scripted([
      call('write_file', { path: 'one.py', content: '' }),
      call('write_file', { path: 'two.py', content: '' }),
      call('finish', { summary: 's' }),
    ]);
    const run = runCoder(
      inputWith(provider, {
        signal: controller.signal,
        heartbeat: () => controller.abort(new Error('cancelled by test')),
      }),
    );
    await expect(run).rejects.toThrow('cancelled by test');
    expect(existsSync(path.join(t.repo, 'one.py'))).toBe(true);
    expect(existsSync(path.join(t.repo, 'two.py'))).toBe(false);
  });

  it('stops a model call in flight when cancelled', async () => {
    const controller = new AbortController();
    const hanging: ModelProvider = {
      spec: 'test:hanging',
      complete: () => {
        // Abort after the call has started, so the run is waiting on a promise that never settles.
        queueMicrotask(() => controller.abort(new Error('cancelled mid-call')));
        return new Promise(() => undefined);
      },
    };
    await expect(runCoder(inputWith(hanging, { signal: controller.signal }))).rejects.toThrow('cancelled mid-call');
  });

  it('refuses a maxSteps below 1 naming the field', async () => {
    await expect(runCoder(inputWith(scripted([]), { maxSteps: 0 }))).rejects.toMatchObject({
      type: 'InvalidCoderInput',
      nonRetryable: true,
      message: expect.stringContaining('maxSteps must be a positive integer, got 0'),
    });
  });
});
