import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exitCodeFor, UsageError, WorkFailed } from '../../../client/cli-errors.js';
import { modelCommand } from '../../../client/commands/model.js';
import { bundledModel, localModelPaths } from '../../../platform/local-model/pins.js';
import { localRuntimeInstalled } from '../../../platform/local-model/runtime.js';

async function refusal(argv: string[]): Promise<{ code: number; message: string }> {
  const error = await modelCommand.run(argv).then(
    () => undefined,
    (caught: unknown) => caught as Error,
  );
  expect(error, `taskloop model ${argv.join(' ')} should fail`).toBeInstanceOf(Error);
  return { code: exitCodeFor(error), message: error?.message ?? '' };
}

describe('taskloop model', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('refuses a missing or unknown subcommand with exit 2, naming the two there are', async () => {
    expect(await refusal([])).toEqual({
      code: 2,
      message: expect.stringContaining('the subcommand is missing; use taskloop model install or taskloop model serve'),
    });
    expect((await refusal(['start'])).message).toContain('the subcommand is "start"');
  });

  it('refuses a context below what the first prompt needs, naming the flag, the value and the range', async () => {
    const { code, message } = await refusal(['serve', '--ctx', '2048']);
    expect(code).toBe(2);
    expect(message).toBe('taskloop model serve: --ctx must be a whole number from 4096 to 32768, got "2048"');
    expect((await refusal(['serve', '--port', '0'])).message).toContain(
      '--port must be a whole number from 1 to 65535',
    );
    expect((await refusal(['serve', '--host', 'x'])).code).toBe(2);
  });

  it('refuses a model it does not bundle, naming the ones it does', async () => {
    const install = await refusal(['install', '--model', 'gemma3-270m']);
    expect(install).toEqual({
      code: 2,
      message: 'taskloop model install: --model is "gemma3-270m"; use qwen2.5-coder-1.5b, qwen2.5-coder-0.5b, all',
    });
    // `all` installs; one server serves one model.
    expect((await refusal(['serve', '--model', 'all'])).message).toBe(
      'taskloop model serve: --model is "all"; use qwen2.5-coder-1.5b, qwen2.5-coder-0.5b',
    );
  });

  it('says to install first when this machine has no build (exit 1)', async () => {
    process.env.XDG_CACHE_HOME = await mkdtemp(path.join(os.tmpdir(), 'no-model-'));
    const error = await modelCommand.run(['serve']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WorkFailed);
    expect(exitCodeFor(error)).toBe(1);
    expect((error as Error).message).toMatch(
      /the local model is not installed .*run taskloop model install --model qwen2.5-coder-1.5b first/,
    );
    expect(error).not.toBeInstanceOf(UsageError);
  });

  // Needs the 0.5B model and node-llama-cpp in this machine's cache (the real-model tier installs them): install then
  // only checks them (a second or two).
  const small = bundledModel('qwen2.5-coder-0.5b');
  const cached = small !== undefined && existsSync(localModelPaths(process.env, small).model);
  it.skipIf(!cached)(
    "install --json prints the acting commands' one shape: the models, the runtime and paths",
    { timeout: 120_000 },
    async () => {
      expect((await localRuntimeInstalled('node-llama-cpp')).installed).toBe(true);
      const printed: string[] = [];
      const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
      const progress = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        expect(
          await modelCommand.run(['install', '--model', 'qwen2.5-coder-0.5b', '--runtime', 'node-llama-cpp', '--json']),
        ).toBe(0);
      } finally {
        log.mockRestore();
        progress.mockRestore();
      }
      expect(printed).toHaveLength(1);
      const action = JSON.parse(printed[0] ?? '') as {
        details: { runtime: string; models: string[]; seconds: number };
      };
      expect(action).toEqual({
        command: 'model install',
        asked: { model: 'qwen2.5-coder-0.5b', runtime: 'node-llama-cpp' },
        happened: 'installed',
        ids: ['qwen2.5-coder-0.5b'],
        details: {
          runtime: expect.stringContaining('node-llama-cpp') as string,
          models: [localModelPaths(process.env, small!).model],
          seconds: expect.any(Number) as number,
        },
      });
    },
  );
});
