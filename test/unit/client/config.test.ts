import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../client/cli-errors.js';
import { loadTaskloopConfig } from '../../../client/config.js';
import { parseRunFlags } from '../../../client/tasks/run-flags.js';

async function withConfig(content: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-config-'));
  await writeFile(path.join(dir, 'taskloop.config.json'), content);
  return dir;
}

describe('taskloop.config.json and the per-role model flags', () => {
  it('gives each role its model from the file, flags overriding role by role, budgets too', async () => {
    const dir = await withConfig(
      JSON.stringify({
        models: { coder: 'openai:gpt-4o', reviewer: 'anthropic:claude-x', skillWriter: 'scripted:skills.json' },
        budgets: { maxModelCalls: 50 },
      }),
    );
    const config = await loadTaskloopConfig(dir, {});
    const request = parseRunFlags(
      ['--repo', 'r', '--goal', 'Fix add', '--judge-model', 'openai:judge-1', '--reviewer-model', 'openai:rev-2'],
      dir,
      {},
      config,
    );
    expect(request.input.models).toEqual({
      coder: 'openai:gpt-4o',
      reviewer: 'openai:rev-2',
      judge: 'openai:judge-1',
      skillWriter: `scripted:${path.join(dir, 'skills.json')}`,
    });
    expect(request.input.budgets).toEqual({ maxModelCalls: 50 });
  });

  it('is optional, and found through TASKLOOP_CONFIG when set', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'taskloop-config-'));
    expect(await loadTaskloopConfig(empty, {})).toEqual({});
    const dir = await withConfig('{"models": {"coder": "openai:m"}}');
    expect(await loadTaskloopConfig(empty, { TASKLOOP_CONFIG: path.join(dir, 'taskloop.config.json') })).toEqual({
      models: { coder: 'openai:m' },
    });
    await expect(loadTaskloopConfig(empty, { TASKLOOP_CONFIG: 'nope.json' })).rejects.toThrow(
      /TASKLOOP_CONFIG=nope.json: no such file/,
    );
  });

  it('refuses a bad file naming the field and the value forms', async () => {
    const dir = await withConfig('{"models": {"coder": "gpt-4o"}, "modles": {}}');
    const promise = loadTaskloopConfig(dir, {});
    await expect(promise).rejects.toBeInstanceOf(UsageError);
    await expect(promise).rejects.toThrow(
      /models\.coder: expected openai:<model>, anthropic:<model>, local:<model> or scripted:<file>/,
    );
    await expect(promise).rejects.toThrow(/modles/);
    await expect(loadTaskloopConfig(await withConfig('{oops'), {})).rejects.toThrow(/not valid JSON/);
  });
});
