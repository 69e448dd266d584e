// `taskloop show` refusing what it cannot show, through the real bin, before any server is asked (TEMPORAL_ADDRESS
// points at a closed port): exit 2 with one line that names the value and what to pass instead.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../../platform/server/ports.js';
import { runTaskloop } from '../../../support/cli.js';

let dir: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-show-'));
  env = { ...process.env, TEMPORAL_ADDRESS: `127.0.0.1:${await findFreePort()}`, TASKLOOP_HOME: dir };
});

/** The refusal: the last line (a stale dist/ adds a notice before it). */
const lastLine = (stderr: string) => stderr.trim().split('\n').at(-1);

const show = (...args: string[]) => runTaskloop(['show', ...args], { env, cwd: dir, timeout: 30_000 });

describe('taskloop show refuses', () => {
  it('no id, or two', async () => {
    for (const args of [[], ['a', 'b']]) {
      const result = await show(...args);
      expect(result.exitCode, result.all).toBe(2);
      expect(result.stderr).toContain(
        `taskloop show: expected one task id, workflow id or eval (its id, folder or report.json), got ${args.length}`,
      );
    }
  });

  it('a report path that is not there, naming where taskloop eval writes reports', async () => {
    const result = await show('evals/gone/report.json');
    expect(result.exitCode, result.all).toBe(2);
    expect(lastLine(result.stderr)).toBe(
      'taskloop show: evals/gone/report.json is no eval report: no such file, nor a report.json in that folder; pass the report.json that taskloop eval wrote (under .taskloop/eval/<eval id>/ unless --out named another folder)',
    );
  });

  it('a report.json that is not an eval report, found by its eval id under TASKLOOP_HOME', async () => {
    const folder = path.join(dir, 'eval', 'tiny-0badc0de');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'report.json'), '{"suite": "tiny"}');
    const result = await show('tiny-0badc0de');
    expect(result.exitCode, result.all).toBe(2);
    expect(lastLine(result.stderr)).toBe(
      `taskloop show: ${path.join(folder, 'report.json')} is not an eval report (no evalId, arms and runs): pass the report.json that taskloop eval wrote`,
    );
  });

  it('an unknown flag', async () => {
    const result = await show('task-p-t1', '--pdf');
    expect(result.exitCode, result.all).toBe(2);
    expect(lastLine(result.stderr)).toBe("taskloop show: Unknown option '--pdf' (see taskloop show --help)");
  });
});
