import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttemptSummary } from '../../../../activities/coder/context.js';
import { runCoder, type RunCoderInput } from '../../../../activities/coder/run-coder.js';
import { createModelProvider } from '../../../../activities/models/router.js';
import type { ChatMessage, ModelProvider } from '../../../../activities/models/types.js';
import { summarizeTelemetry } from '../../../../domain/telemetry.js';
import { call, createTempRepo, writeScript, type TempRepo } from './fixtures.js';

const buggy = 'def add(a, b):\n    return a - b\n';
const testFile = 'from calc.core import add\n\ndef test_add():\n    assert add(1, 2) == 3\n';

let t: TempRepo;
beforeEach(async () => {
  t = await createTempRepo({ 'calc/__init__.py': '', 'calc/core.py': buggy, 'tests/test_core.py': testFile });
});
afterEach(() => t.cleanup());

async function coderInput(
  script: Parameters<typeof writeScript>[1],
  overrides: Partial<RunCoderInput> = {},
): Promise<RunCoderInput> {
  await writeScript(t.base, script);
  const provider = await createModelProvider('scripted:script.json', { role: 'coder', startTurn: 0, cwd: t.base });
  return {
    worktreePath: t.repo,
    goal: 'Fix add',
    provider,
    maxSteps: 10,
    previousAttempts: [],
    secretValues: [],
    artifactDir: t.artifacts,
    hostId: 'host-a',
    ...overrides,
  };
}

async function readTranscript(file: string | undefined): Promise<ChatMessage[]> {
  return JSON.parse(await readFile(file ?? '', 'utf8')) as ChatMessage[];
}

describe('runCoder', () => {
  it('runs the model through tools until finish, editing one file and creating another', async () => {
    const steps: unknown[] = [];
    const input = await coderInput({
      coder: [
        call('list_files', { recursive: true }, 'Looking around.'),
        call('read_file', { path: 'calc/core.py' }),
        {
          tool_calls: [
            { name: 'replace_in_file', arguments: { path: 'calc/core.py', old: 'return a - b', new: 'return a + b' } },
            { name: 'write_file', arguments: { path: 'calc/mul.py', content: 'def mul(a, b):\n    return a * b\n' } },
          ],
        },
        call('finish', { summary: 'add now adds; added mul.' }),
        call('write_file', { path: 'never.py', content: '' }),
      ],
    });
    const result = await runCoder({ ...input, heartbeat: (details) => steps.push(details) });

    expect(result).toMatchObject({
      status: 'finished',
      summary: 'add now adds; added mul.',
      changedFiles: ['calc/core.py', 'calc/mul.py'],
      turnsConsumed: 4,
    });
    expect(result.reason).toBeUndefined();
    expect(result.telemetry).toMatchObject({
      patchAttempts: 1,
      patchSuccesses: 1,
      patchMismatches: 0,
      writeFileOperations: 1,
      writeFileFallbacks: 0,
      mutationOperations: 2,
      modelRequests: 4,
    });
    expect(result.telemetry.inputTokens).toBeGreaterThan(0);
    const transcriptPath = path.join(t.artifacts, 'transcript.json');
    expect(steps).toEqual(
      [1, 2, 3, 4].map((step) => ({
        step,
        transcriptPath,
        telemetry: expect.objectContaining({ modelRequests: step }) as unknown,
      })),
    );
    const pytest = await execa('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
      cwd: t.repo,
      reject: false,
    });
    expect(pytest.exitCode).toBe(0);

    const transcript = await readTranscript(result.transcript?.path);
    expect(result.transcript).toMatchObject({ hostId: 'host-a', path: path.join(t.artifacts, 'transcript.json') });
    expect(transcript.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'tool',
    ]);
    expect(transcript[3]).toMatchObject({
      role: 'tool',
      name: 'list_files',
      content: expect.stringContaining('calc/core.py'),
    });
  });

  it('counts a failed replace followed by write_file of the same file as a mismatch and a fallback', async () => {
    const usage = { input_tokens: 100, output_tokens: 10 };
    const input = await coderInput({
      coder: [
        { ...call('replace_in_file', { path: 'calc/core.py', old: 'return a-b', new: 'return a + b' }), usage },
        { ...call('write_file', { path: 'calc/core.py', content: 'def add(a, b):\n    return a + b\n' }), usage },
        { ...call('replace_in_file', { path: 'calc/core.py', old: 'return a + b', new: 'return b + a' }), usage },
        { ...call('write_file', { path: 'calc/extra.py', content: 'X = 1\n' }), usage },
        { ...call('finish', { summary: 'rewrote add' }), usage },
      ],
    });
    const result = await runCoder(input);
    expect(result.telemetry).toEqual({
      patchAttempts: 2,
      patchSuccesses: 1,
      patchMismatches: 1,
      writeFileOperations: 2,
      writeFileFallbacks: 1,
      mutationOperations: 3,
      modelRequests: 5,
      inputTokens: 500,
      outputTokens: 50,
      inAttemptTestRuns: 0,
      refusedToolCalls: 0,
      failedModelRequests: 0,
      modelServerWaits: 0,
      textToolCalls: 0,
      truncatedToolCalls: 0,
      offeredToolReplies: 5,
    });
    const summary = summarizeTelemetry([result.telemetry], { tasks: 1, acceptedTasks: 1 });
    expect(summary).toMatchObject({
      patch_mismatch_count: 1,
      patch_success_rate: 0.5,
      write_file_fallbacks: 1,
      write_file_fallback_rate: 0.5,
      model_requests_per_task: 5,
    });
    expect(result.changedFiles).toEqual(['calc/core.py', 'calc/extra.py']);
  });

  it('continues the scripted turns across two runs when the second starts at the first one’s count', async () => {
    const script = {
      coder: [
        call('write_file', { path: 'a.py', content: 'A = 1\n' }),
        call('finish', { summary: 'first' }),
        call('write_file', { path: 'b.py', content: 'B = 1\n' }),
        call('finish', { summary: 'second' }),
      ],
    };
    const first = await runCoder(await coderInput(script));
    expect(first).toMatchObject({ status: 'finished', summary: 'first', changedFiles: ['a.py'], turnsConsumed: 2 });
    const provider = await createModelProvider('scripted:script.json', {
      role: 'coder',
      startTurn: first.turnsConsumed,
      cwd: t.base,
    });
    const second = await runCoder({ ...(await coderInput(script)), provider });
    expect(second).toMatchObject({ status: 'finished', summary: 'second', changedFiles: ['b.py'], turnsConsumed: 2 });
  });

  it('ends with model_error, not an exception, when the scripted turns run out', async () => {
    const result = await runCoder(await coderInput({ coder: [call('read_file', { path: 'calc/core.py' })] }));
    expect(result.status).toBe('model_error');
    expect(result.reason).toContain('model problem: the scripted file');
    expect(result.reason).toContain('has no coder turn left (used 1)');
    expect(result.turnsConsumed).toBe(1);
    expect((await readTranscript(result.transcript?.path)).length).toBe(4);
  });

  it('stops at maxSteps, counting a turn without tool calls as a step and nudging the model', async () => {
    const result = await runCoder(
      await coderInput(
        {
          coder: [
            { content: 'I think I should look first.' },
            call('read_file', { path: 'calc/core.py' }),
            call('finish', { summary: 'late' }),
          ],
        },
        { maxSteps: 2 },
      ),
    );
    expect(result).toMatchObject({
      status: 'max_steps',
      reason: 'max steps (2) reached without finish',
      turnsConsumed: 2,
      changedFiles: [],
    });
    const transcript = await readTranscript(result.transcript?.path);
    expect(transcript[3]).toMatchObject({ role: 'user', content: expect.stringContaining('without calling a tool') });
  });

  it('gives the model previous attempts’ test evidence and the human hint in its first user message', async () => {
    const previous: AttemptSummary = {
      attempt: 1,
      status: 'failed',
      failureClass: 'test_failure',
      reviewFindings: [],
      judgeFindings: [],
      test: {
        counts: { total: 1, passed: 0, failed: 1, errors: 0, skipped: 0 },
        stdoutExcerpt: 'E   assert -1 == 3',
        stderrExcerpt: '',
      },
    };
    const seen: ChatMessage[][] = [];
    const input = await coderInput(
      { coder: [call('finish', { summary: 'done' })] },
      { previousAttempts: [previous], hint: 'use a plus sign' },
    );
    const provider: ModelProvider = {
      spec: input.provider.spec,
      complete: (request) => (seen.push(request.messages), input.provider.complete(request)),
    };
    await runCoder({ ...input, provider });
    const user = seen[0][1];
    expect(user.role).toBe('user');
    expect(user.content).toContain('E   assert -1 == 3');
    expect(user.content).toContain('# Hint from a human\nuse a plus sign');
  });

  it('redacts a secret from the goal in what the model sees, the transcript and the summary', async () => {
    const secret = 'tok-9f8e7d6c5b';
    const seen: string[] = [];
    const input = await coderInput(
      {
        coder: [
          call('write_file', { path: 'conf.py', content: `TOKEN = "${secret}"\n` }),
          call('finish', { summary: `stored ${secret}` }),
        ],
      },
      { goal: `Store the token ${secret} in conf.py`, secretValues: [secret] },
    );
    const provider: ModelProvider = {
      spec: input.provider.spec,
      complete: (request) => (
        seen.push(JSON.stringify(request.messages.slice(0, 2))),
        input.provider.complete(request)
      ),
    };
    const result = await runCoder({ ...input, provider });
    expect(seen[0]).toContain('Store the token [redacted] in conf.py');
    expect(seen.join('')).not.toContain(secret);
    const transcript = await readFile(result.transcript?.path ?? '', 'utf8');
    expect(transcript).not.toContain(secret);
    expect(transcript).toContain('[redacted]');
    expect(result.summary).toBe('stored [redacted]');
  });
});
