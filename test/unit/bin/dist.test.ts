// The bin runs the compiled CLI; CI builds dist/ first (npm test runs setup, which builds), so it must be current.
import { execFile } from 'node:child_process';
import { readFile, rm, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import os from 'node:os';
import { distIsCurrent } from '../../../bin/dist-state.js';
import { taskEventSinks } from '../../../workers/event-sinks.js';
import { projectRoot } from '../../../platform/paths.js';

const run = promisify(execFile);

describe('the built CLI', () => {
  it('is what bin/taskloop.js runs', async () => {
    const bin = await readFile(path.join(projectRoot, 'bin', 'taskloop.js'), 'utf8');
    expect(bin).toContain("new URL('../dist/cli/cli.cjs', import.meta.url)");
  });

  it('starts again from the code cache its first start wrote, with the same output', async () => {
    const cache = path.join(projectRoot, 'dist', 'cli', `cli.cjs.${process.version}.help.cache`);
    await rm(cache, { force: true });
    const help = () => run(process.execPath, [path.join(projectRoot, 'bin', 'taskloop.js'), 'help', 'list']);

    const first = await help();
    const written = await stat(cache);
    const second = await help();

    expect(written.size).toBeGreaterThan(0);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stdout).toContain('Usage: taskloop list');
    // V8 accepted the cache: a rejected one would be written again.
    expect((await stat(cache)).mtimeMs).toBe(written.mtimeMs);
  });

  it("bundles the workflows a worker started from dist/ runs: the bundle replays a task's recorded history", async () => {
    const history = historyFromJSON(
      JSON.parse(
        await readFile(path.join(projectRoot, 'test', 'fixtures', 'histories', 'fails-then-passes.json'), 'utf8'),
      ),
    );
    const codePath = path.join(projectRoot, 'dist', 'workflows', 'bundle.js');
    await expect(
      Worker.runReplayHistory(
        { workflowBundle: { codePath }, sinks: taskEventSinks(path.join(os.tmpdir(), 'none.jsonl')) },
        history,
      ),
    ).resolves.toBeUndefined();
  });

  it('is current with the sources (run `npm run build` when this fails)', () => {
    expect(distIsCurrent(projectRoot)).toBe(true);
  });

  it('is left as it is by a set-up build (`--if-stale`) while it is current', async () => {
    const stamp = path.join(projectRoot, 'dist', '.build-stamp');
    const before = await stat(stamp);

    const { stdout } = await run(process.execPath, [path.join(projectRoot, 'scripts', 'build.mjs'), '--if-stale']);

    expect(stdout).toContain('[build] dist/ is current');
    expect((await stat(stamp)).mtimeMs).toBe(before.mtimeMs);
  });
});
