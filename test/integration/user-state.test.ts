// `npm run demo` leaves its dev server running on the checkout's .taskloop/temporal.db and 127.0.0.1:7233 (and the
// Web UI on 8233); `npm test` after it must pass and leave that server and state alone. Shown on a copy of this
// checkout (its own .taskloop/, so the user's is never touched): the demo's server started from the copy as the demo
// starts it, then the CLI test file that once started a second server on that database run there by vitest, with
// the environment of a shell that exports nothing taskloop or Temporal reads.
import { execa } from 'execa';
import { cp, mkdir, mkdtemp, readdir, symlink } from 'node:fs/promises';
import os from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findDevServersUsing } from '../../platform/server/db-holders.js';
import { findFreePort, isPortFree } from '../../platform/server/ports.js';
import { projectRoot } from '../../platform/paths.js';
import { toolsDir } from '../../platform/server/temporal-cli.js';

/** A copy of the checkout's files as they are now (tracked and new), with its built dist/; packages and tools linked. */
async function copyCheckout(): Promise<string> {
  const target = await mkdtemp(path.join(os.tmpdir(), 'taskloop-checkout-'));
  const { stdout } = await execa('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: projectRoot });
  for (const file of stdout.split('\0').filter(Boolean))
    await cp(path.join(projectRoot, file), path.join(target, file), { preserveTimestamps: true }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error; // a file deleted in the working tree and not yet committed
      },
    );
  await cp(path.join(projectRoot, 'dist'), path.join(target, 'dist'), { recursive: true, preserveTimestamps: true });
  await symlink(path.join(projectRoot, 'node_modules'), path.join(target, 'node_modules'));
  await mkdir(path.join(target, '.taskloop'));
  await symlink(toolsDir(), toolsDir(target));
  return target;
}

/** A user's shell: nothing that points taskloop or Temporal somewhere, and no trace of the vitest running this file. */
function userShellEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(TASKLOOP_|TEMPORAL_|VITEST|TINYPOOL)/.test(name)),
  );
}

describe('the tests and the state a user left running', () => {
  it("npm test's CLI tests pass with the demo's server on the checkout's database and default ports, and leave it alone", async () => {
    const checkout = await copyCheckout();
    const env = userShellEnv();
    const taskloop = (args: string[]) =>
      execa('node', [path.join(checkout, 'bin', 'taskloop.js'), ...args], {
        cwd: checkout,
        env,
        extendEnv: false,
        reject: false,
      });
    const dbFile = path.join(checkout, '.taskloop', 'temporal.db');
    // The default ports when they are free (as after a demo); when a server of the user's holds them, that is the case
    // to show already, and the copy's server takes others.
    const defaults = (await isPortFree(7233)) && (await isPortFree(8233));
    const ports = defaults ? [] : ['--port', String(await findFreePort()), '--headless'];
    const started = await taskloop(['server', '--detach', ...ports]);
    try {
      expect(started.exitCode, `${started.stdout}\n${started.stderr}`).toBe(0);
      const [demoServer] = await findDevServersUsing(dbFile);
      expect(demoServer?.address).toBe(defaults ? '127.0.0.1:7233' : expect.any(String));

      const run = await execa(
        'node',
        [path.join(checkout, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/integration/server-cli.test.ts'],
        { cwd: checkout, env: { ...env, CI: 'true' }, extendEnv: false, reject: false, all: true, timeout: 400_000 },
      );
      expect(run.exitCode, run.all).toBe(0);
      expect(stripVTControlCharacters(run.all)).toMatch(/Tests +10 passed/);

      // The demo's server still serves on its database, and the tests wrote nothing beside it.
      expect(await findDevServersUsing(dbFile)).toEqual([demoServer]);
      const left = (await readdir(path.join(checkout, '.taskloop'))).filter((name) => !/^temporal\.db/.test(name));
      expect(left.sort()).toEqual(['server.log', 'server.pid', 'tools']);
    } finally {
      await taskloop(['server', 'stop']);
    }
  }, 480_000);
});
