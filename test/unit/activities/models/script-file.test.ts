import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatJsonPath, loadScript } from '../../../../activities/models/script-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function failureOf(text: string): Promise<ApplicationFailure> {
  const file = path.join(dir, 'turns.json');
  await writeFile(file, text);
  const error = await loadScript(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApplicationFailure);
  return error as ApplicationFailure;
}

describe('loadScript', () => {
  it('reads a valid script with defaults for missing content, tool_calls and arguments', async () => {
    const file = path.join(dir, 'ok.json');
    await writeFile(
      file,
      JSON.stringify({
        coder: [{ tool_calls: [{ name: 'finish' }] }, { content: 'hi', usage: { input_tokens: 3, output_tokens: 2 } }],
      }),
    );
    const script = await loadScript(file);
    expect(script.coder[0]).toEqual({ content: '', tool_calls: [{ name: 'finish', arguments: {} }] });
    expect(script.coder[1].usage).toEqual({ input_tokens: 3, output_tokens: 2 });
    expect(script.judge).toEqual([]);
  });

  it('refuses bad JSON as a non-retryable InvalidScript failure naming the file', async () => {
    const failure = await failureOf('{ "coder": [ ');
    expect(failure.type).toBe('InvalidScript');
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toContain(path.join(dir, 'turns.json'));
    expect(failure.message).toContain('not valid JSON');
  });

  it('names the JSON path and the fix when tool_calls is not an array', async () => {
    const failure = await failureOf(JSON.stringify({ coder: [{ content: 'a' }, { tool_calls: { name: 'finish' } }] }));
    expect(failure.message).toContain('coder[1].tool_calls');
    expect(failure.message).toContain('fix: write "tool_calls" as an array');
  });

  it('names the JSON path and the fix when arguments is a string', async () => {
    const failure = await failureOf(
      JSON.stringify({ coder: [{}, {}, { tool_calls: [{ name: 'read_file', arguments: '{"path":"a.py"}' }] }] }),
    );
    expect(failure.message).toContain('coder[2].tool_calls[0].arguments');
    expect(failure.message).toContain('JSON object');
  });

  it('names unknown keys so typos do not pass silently', async () => {
    const failure = await failureOf(JSON.stringify({ coders: [], judge: [{ toolcalls: [] }] }));
    expect(failure.message).toContain('"coders"');
    expect(failure.message).toContain('at judge[0]: unknown key(s) "toolcalls"');
  });

  it('reports a missing file with its path', async () => {
    const file = path.join(dir, 'absent.json');
    await expect(loadScript(file)).rejects.toMatchObject({
      type: 'InvalidScript',
      nonRetryable: true,
      message: expect.stringContaining(`${file}: the file does not exist`),
    });
  });
});

describe('formatJsonPath', () => {
  it('writes array indexes in brackets and keys with dots', () => {
    expect(formatJsonPath(['coder', 2, 'tool_calls', 0, 'arguments'])).toBe('coder[2].tool_calls[0].arguments');
    expect(formatJsonPath([])).toBe('');
  });
});
