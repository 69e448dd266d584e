import { access, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasGgufMagic, modelLooksComplete } from '../../../../platform/local-model/assemble-model.js';
import { checkBuildTools, LocalModelInstallError } from '../../../../platform/local-model/build-tools.js';
import { buildDirOf, cmakeOptions } from '../../../../platform/local-model/build-server.js';
import { checkSha256 } from '../../../../platform/local-model/fetch.js';
import { llamaServerArgs } from '../../../../platform/local-model/llama-server.js';
import {
  ensureOwnedLocalServer,
  localModelCtx,
  LocalModelUnusable,
} from '../../../../platform/local-model/owned-server.js';
import { chatTemplateFile, gemmaModel, localModelPaths } from '../../../../platform/local-model/pins.js';

const tempDir = () => mkdtemp(path.join(os.tmpdir(), 'local-model-'));

describe('where the local model is cached', () => {
  it('is under XDG_CACHE_HOME, per llama.cpp version, outside the clone', () => {
    const paths = localModelPaths({ XDG_CACHE_HOME: '/var/cache/u' });
    expect(paths.serverBinary).toBe('/var/cache/u/taskloop/local-model/llama-server-11434.0.0/llama-server');
    expect(paths.model).toBe('/var/cache/u/taskloop/local-model/gemma3-270m-q4_k_m.gguf');
    expect(buildDirOf(paths)).toBe('/var/cache/u/taskloop/local-model/build-llama-server-11434.0.0');
  });

  it('falls back to ~/.cache when XDG_CACHE_HOME is unset or blank', () => {
    expect(localModelPaths({ XDG_CACHE_HOME: ' ' }).cacheDir).toBe(
      path.join(os.homedir(), '.cache', 'taskloop', 'local-model'),
    );
  });
});

describe('the llama-server command line', () => {
  const args = llamaServerArgs({ binary: '/b/llama-server', model: '/m.gguf', port: 8080, ctx: 8192 });

  it('binds loopback only and has what tool calling and this CPU need', () => {
    expect(args.join(' ')).toContain('--host 127.0.0.1 --port 8080 --ctx-size 8192');
    expect(args).toContain('--jinja');
    expect(args).toContain('--no-repack');
    expect(args[args.indexOf('--n-predict') + 1]).toBe('512');
    // All cores but one: threads waiting for a share of a busy core slowed it 6 to 9 times.
    expect(Number(args[args.indexOf('--threads') + 1])).toBe(Math.max(1, os.availableParallelism() - 1));
    expect(args[args.indexOf('--chat-template-file') + 1]).toBe(chatTemplateFile);
    expect(args[args.indexOf('--alias') + 1]).toBe('gemma3-270m');
  });

  it('ships the chat template it names', async () => {
    await expect(access(chatTemplateFile)).resolves.toBeUndefined();
  });

  it('builds nothing that downloads at build time', () => {
    expect(cmakeOptions).toContain('-DLLAMA_USE_PREBUILT_UI=OFF');
    expect(cmakeOptions).toContain('-DBUILD_SHARED_LIBS=OFF');
  });
});

describe('checks of what was fetched', () => {
  it('refuses a file whose sha256 is not the recorded one, naming both and the fix', async () => {
    const file = path.join(await tempDir(), 'x.gguf');
    await writeFile(file, 'GGUF and more');
    const actual = createHash('sha256').update('GGUF and more').digest('hex');
    await expect(checkSha256(file, actual, 'the model')).resolves.toBeUndefined();
    const refused = checkSha256(file, '0'.repeat(64), 'the model');
    await expect(refused).rejects.toThrow(LocalModelInstallError);
    await expect(refused).rejects.toThrow(new RegExp(`${actual}, not the recorded 0{64}.*delete the file`));
  });

  it('tells a GGUF file by its magic and a complete model by its exact size', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'good'), 'GGUF\x03\x00');
    await writeFile(path.join(dir, 'bad'), 'PK\x03\x04');
    expect(await hasGgufMagic(path.join(dir, 'good'))).toBe(true);
    expect(await hasGgufMagic(path.join(dir, 'bad'))).toBe(false);
    expect(await modelLooksComplete(path.join(dir, 'good'))).toBe(false);
    expect(await modelLooksComplete(path.join(dir, 'missing'))).toBe(false);
    expect(gemmaModel.bytes).toBe(253_113_024);
  });
});

describe('the build tools', () => {
  it('names every missing tool and the package that brings it', async () => {
    const bin = await tempDir();
    // Only Python (for pip) on PATH: cmake and the compilers are missing.
    const python = (await import('node:child_process')).execFileSync('python3', [
      '-c',
      'import sys; print(sys.executable)',
    ]);
    await symlink(python.toString().trim(), path.join(bin, 'python3'));
    const env = { PATH: bin, HOME: os.homedir() };
    await expect(checkBuildTools({ build: false }, env)).resolves.toBeUndefined();
    const refused = checkBuildTools({ build: true }, env);
    await expect(refused).rejects.toThrow(
      /needs cmake \(3\.14 or newer\), a C compiler \(cc\), a C\+\+ compiler \(c\+\+\)/,
    );
    await expect(refused).rejects.toThrow(/apt-get install cmake.*apt-get install build-essential/);
  });
});

describe('the worker-owned server', () => {
  it('refuses a model it does not install, naming the accepted one and the alternative', async () => {
    await expect(ensureOwnedLocalServer('llama3')).rejects.toThrow(LocalModelUnusable);
    await expect(ensureOwnedLocalServer('llama3')).rejects.toThrow(
      /local model 'llama3' is not one taskloop installs; use local:gemma3-270m, or openai:<model> with OPENAI_BASE_URL/,
    );
  });

  it('says to run taskloop model install when this machine has no build', async () => {
    const env = { XDG_CACHE_HOME: await tempDir(), TASKLOOP_HOME: await tempDir() };
    await expect(ensureOwnedLocalServer('gemma3-270m', { env })).rejects.toThrow(
      /local:gemma3-270m is not installed on this worker's machine .*run taskloop model install/,
    );
  });

  it('reads the context size from TASKLOOP_LOCAL_MODEL_CTX and refuses a bad one with the range', () => {
    expect(localModelCtx({})).toBe(8192);
    expect(localModelCtx({ TASKLOOP_LOCAL_MODEL_CTX: '16384' })).toBe(16384);
    for (const bad of ['2048', 'big', '1e9'])
      expect(() => localModelCtx({ TASKLOOP_LOCAL_MODEL_CTX: bad })).toThrow(
        `TASKLOOP_LOCAL_MODEL_CTX is "${bad}"; set it to a whole number of tokens from 4096 to 32768`,
      );
  });
});
