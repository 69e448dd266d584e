// `taskloop env build | list | clean` as a user runs them: the real binary, a real repository, the real sandbox.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTaskloop } from '../support/cli.js';
import { documentedBlock } from '../support/documented-commands.js';
import { makeRepo } from '../support/git-repo.js';
import { sampleMismatch } from '../support/sample-shape.js';

const thisFile = 'test/integration/cli-env.test.ts';

describe('taskloop env', () => {
  it('builds a repository’s environment once, lists it with its packages, reports a failed set-up, and cleans', async () => {
    const repo = await makeRepo({ 'requirements.txt': 'iniconfig\n', 'test_it.py': 'def test_it():\n    pass\n' });
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-env-cli-'));
    const env = { ...process.env, TASKLOOP_WORK_DIR: workDir, TASKLOOP_ENV_CACHE: '' };
    const run = (args: string[]) => runTaskloop(['env', ...args], { env, timeout: 300_000 });

    const first = await run(['build', repo, '--json']);
    expect(first.exitCode, first.all).toBe(0);
    const built = JSON.parse(first.stdout) as { name: string; built: boolean; dir: string };
    expect(built.built).toBe(true);
    expect(built.dir).toBe(path.join(workDir, 'environments', built.name));

    const again = await run(['build', repo, '--ref', 'main', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ name: built.name, built: false });

    const listed = await run(['list', '--json']);
    const [entry, ...others] = JSON.parse(listed.stdout) as { name: string; setup: string[]; packages: string[] }[];
    expect(others).toEqual([]);
    expect(entry?.name).toBe(built.name);
    expect(entry?.setup).toEqual(["uv pip install -r 'requirements.txt'", 'uv pip install pytest']);
    expect(entry?.packages.some((line) => line.startsWith('iniconfig=='))).toBe(true);

    const failed = await run(['build', repo, '--setup', 'echo no-such-index >&2; exit 4']);
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain('`echo no-such-index >&2; exit 4` exited 4');
    expect(failed.stderr).toContain('no-such-index');
    // environments.md's sample reason has this shape: the line and its exit code, then the end of its output.
    const documented = await documentedBlock('docs/environments.md', `sample setup-failed: checked by ${thisFile}`);
    const [firstLine = ''] = documented.split('\n');
    const shape = [firstLine.replace(/`[^`]*`/, '`…`').replace(/exited \d+/, 'exited …'), '…'].join('\n');
    const reason = failed.stderr.slice(failed.stderr.indexOf('environment set-up failed:'));
    expect(sampleMismatch(reason, shape)).toBeUndefined();

    expect((await run(['clean'])).exitCode).toBe(2);
    const cleaned = await run(['clean', built.name, '--json']);
    expect(JSON.parse(cleaned.stdout)).toEqual({ removed: [built.name] });
    expect(JSON.parse((await run(['list', '--json'])).stdout)).toEqual([]);
  });
});
