import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exitCodeFor, UsageError, WorkFailed } from '../../../client/cli-errors.js';
import { modelCommand } from '../../../client/commands/model.js';

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
});
