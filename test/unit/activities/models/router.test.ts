import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelProvider } from '../../../../activities/models/router.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('createModelProvider', () => {
  it('resolves a relative scripted path against cwd and starts at the given turn of the role', async () => {
    await writeFile(
      path.join(dir, 'turns.json'),
      JSON.stringify({ coder: [{ content: 'first' }, { content: 'second' }] }),
    );
    const provider = await createModelProvider('scripted:turns.json', { role: 'coder', startTurn: 1, cwd: dir });
    expect(provider.spec).toBe(`scripted:${path.join(dir, 'turns.json')}`);
    expect((await provider.complete({ role: 'coder', messages: [], tools: [] })).content).toBe('second');
  });

  it('refuses openai and anthropic specs without a key or a server, naming the variable to set', async () => {
    for (const [spec, variable] of [
      ['openai:gpt-4o', 'OPENAI_API_KEY'],
      ['anthropic:claude-sonnet', 'ANTHROPIC_API_KEY'],
    ] as const) {
      await expect(createModelProvider(spec, { role: 'coder', startTurn: 0, cwd: dir, env: {} })).rejects.toMatchObject(
        {
          type: 'ProviderAuthFailed',
          nonRetryable: true,
          message: expect.stringContaining(variable),
        },
      );
    }
  });

  it('creates openai and anthropic providers when a base URL or key is set', async () => {
    const env = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', ANTHROPIC_API_KEY: 'k' };
    expect((await createModelProvider('openai:llama3', { role: 'coder', cwd: dir, env })).spec).toBe('openai:llama3');
    expect((await createModelProvider('anthropic:claude-x', { role: 'judge', cwd: dir, env })).spec).toBe(
      'anthropic:claude-x',
    );
  });

  it('refuses an unknown spec naming the value and the accepted forms', async () => {
    await expect(createModelProvider('gpt-4o', { role: 'judge', startTurn: 0, cwd: dir })).rejects.toMatchObject({
      type: 'InvalidModelSpec',
      nonRetryable: true,
      message: expect.stringMatching(/'gpt-4o'.*openai:<model>, anthropic:<model>, local:<model> or scripted:<file>/),
    });
  });

  it('passes a missing scripted file on as InvalidScript', async () => {
    await expect(
      createModelProvider('scripted:nope.json', { role: 'coder', startTurn: 0, cwd: dir }),
    ).rejects.toMatchObject({ type: 'InvalidScript' });
  });
});
