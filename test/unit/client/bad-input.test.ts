// Each bad input a newcomer types, through the real bin: exit 2, one line naming the field, the value and the fix,
// before any server is contacted (TEMPORAL_ADDRESS points at a closed port), and never a credential.
import { execa } from 'execa';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../platform/server/ports.js';
import { runTaskloop } from '../../support/cli.js';

let dir: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-bad-input-'));
  const { OPENAI_API_KEY: _key, OPENAI_BASE_URL: _base, ...rest } = process.env;
  env = { ...rest, TEMPORAL_ADDRESS: `127.0.0.1:${await findFreePort()}`, TASKLOOP_WORK_DIR: path.join(dir, 'w') };
});

const taskloop = (args: string[], cwd = dir) => runTaskloop(args, { env, cwd, timeout: 30_000 });

async function repoWithCommit(): Promise<string> {
  const repo = await mkdtemp(path.join(dir, 'repo-'));
  const git = (...args: string[]) => execa('git', ['-C', repo, ...args]);
  await git('init', '-q', '-b', 'main');
  await git('config', 'user.email', 't@example.com');
  await git('config', 'user.name', 't');
  await writeFile(path.join(repo, 'calc.py'), 'x = 1\n');
  await git('add', 'calc.py');
  await git('commit', '-q', '-m', 'initial');
  await writeFile(path.join(dir, 'script.json'), '{"coder": []}');
  return repo;
}

describe('bad inputs exit 2 naming the field, the value and the fix', () => {
  it('a billion-laughs YAML: the file, the line and what to write instead', async () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const [prev, name] of ['ab', 'bc', 'cd', 'de', 'ef', 'fg'])
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    const file = path.join(dir, 'laughs.yaml');
    await writeFile(file, `project: p\nrepo: .\n${levels.join('\n')}\ntasks: []\n`);
    const result = await taskloop(['schedule', file]);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toContain(`${file}:4:8 aliases here expand to too many nodes`);
    expect(result.stderr).toContain('write the values out');
  });

  it('a tasks file that is not UTF-8: where the first bad byte is and how to convert it', async () => {
    const file = path.join(dir, 'latin1.yaml');
    await writeFile(file, Buffer.from('project: p\nrepo: .\ntasks:\n  - id: t1\n    goal: "caf\xe9"\n', 'latin1'));
    const result = await taskloop(['schedule', file]);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toContain(`${file}:5:15 the file is not UTF-8 text`);
    expect(result.stderr).toContain('iconv -f latin1 -t utf-8');
  });

  it('env build --setup "": the flag, the value and a line that would do', async () => {
    const result = await taskloop(['env', 'build', await repoWithCommit(), '--setup', '']);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toContain('taskloop env build: --setup "": ');
    expect(result.stderr).toContain('e.g. --setup "uv pip install -r requirements.txt"');
  });

  it('env build --file naming a file the commit lacks: refused before anything is built', async () => {
    const repo = await repoWithCommit();
    const result = await taskloop(['env', 'build', repo, '--file', 'nope.txt', '--setup', 'true']);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toMatch(
      /--file nope\.txt is not in .* at HEAD \([0-9a-f]{12}\); name a file that commit holds/,
    );
    expect(result.stderr).not.toContain('[env]');
  });

  it('a retry hint longer than a goal may be: refused before the server is asked, with its length', async () => {
    const result = await taskloop(['retry', 'task-x', '--hint', 'h'.repeat(20_001)]);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toContain('invalid --hint is 20001 characters; at most 20000 are taken');
  });

  it('show --html naming a folder: said as a folder, with a file to name instead (not a raw EISDIR)', async () => {
    const result = await taskloop(['show', 'task-x', '--html', os.tmpdir()]);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toContain(
      `--html ${os.tmpdir()} is a folder: name the page's file, e.g. --html ${path.join(os.tmpdir(), 'trajectory.html')}`,
    );
    expect(result.stderr).not.toContain('EISDIR');
  });

  it('worker --sandbox chroot names the flag, the value and the modes', async () => {
    const result = await taskloop(['worker', '--sandbox', 'chroot']);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr.trim()).toBe(
      'taskloop worker: --sandbox="chroot" is not a sandbox mode: use bwrap (the default) or none',
    );
  });

  it('a repository URL with a token: the reason and the fix, never the token', async () => {
    const result = await taskloop([
      'run',
      '--repo',
      'https://user:tok3n@example.com/x.git',
      '--goal',
      'g',
      '--model',
      'scripted:s.json',
    ]);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toContain('--repo (repo): must not contain credentials');
    expect(result.stderr).toContain('got "https://example.com/x.git" (credentials not shown)');
    expect(result.all).not.toContain('tok3n');
    expect(result.stderr).not.toContain('non-empty path');
  });

  it('negative numbers and durations written with a space reach their own checks', async () => {
    const repo = await repoWithCommit();
    const retries = await taskloop([
      'run',
      '--repo',
      repo,
      '--goal',
      'g',
      '--model',
      'scripted:script.json',
      '--max-retries',
      '-1',
    ]);
    expect(retries.exitCode, retries.all).toBe(2);
    expect(retries.stderr).toContain('--max-retries (maxRetries): expected a whole number from 0 to 2');
    expect(retries.stderr).toContain('got -1');
    const every = await taskloop(['schedule', 'tasks.yaml', '--every', '-1h']);
    expect(every.exitCode, every.all).toBe(2);
    expect(every.stderr).toContain('--every must be an interval of at least 1s');
    expect(every.stderr).toContain('got "-1h"');
    expect(`${retries.stderr}${every.stderr}`).not.toContain('ambiguous');
  });

  it('a repository with uncommitted changes is refused naming the files; --allow-dirty warns and goes on', async () => {
    const repo = await repoWithCommit();
    await writeFile(path.join(repo, 'calc.py'), 'x = 2\n');
    const args = ['run', '--repo', repo, '--goal', 'g', '--model', 'scripted:script.json'];
    const refused = await taskloop(args);
    expect(refused.exitCode, refused.all).toBe(2);
    expect(refused.stderr).toContain(`repo: ${repo} has uncommitted changes (calc.py)`);
    expect(refused.stderr).toContain('commit or stash them, or pass --allow-dirty');
    const allowed = await taskloop([...args, '--allow-dirty']);
    expect(allowed.stderr).toContain(`warning: ${repo} has uncommitted changes (calc.py)`);
    // Past every input check: it stops only at the (closed) server.
    expect(allowed.exitCode, allowed.all).toBe(1);
    expect(allowed.stderr).toContain('connection refused');
  });

  it('an openai: model with no key in sight names the variable to set, before anything starts', async () => {
    const repo = await repoWithCommit();
    const result = await taskloop(['run', '--repo', repo, '--goal', 'g', '--model', 'openai:gpt-4o']);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toContain('taskloop run: models.coder "openai:gpt-4o": no key: set OPENAI_API_KEY');
    const skipped = await taskloop([
      'run',
      '--repo',
      repo,
      '--goal',
      'g',
      '--model',
      'openai:gpt-4o',
      '--skip-provider-check',
    ]);
    expect(skipped.exitCode, skipped.all).toBe(1);
    expect(skipped.stderr).toContain('connection refused');
  });

  it('eval --tags that no instance carries names the tags given and those the suite has', async () => {
    const suite = path.join(dir, 'tiers.yaml');
    const instance = (id: string, tags: string) =>
      `  - { id: ${id}, repo: ./repo, baseRef: main, goal: g, failToPass: [t.py::a], passToPass: [], tags: ${tags} }`;
    await writeFile(
      suite,
      ['name: tiers', 'instances:', instance('a', '[one-line]'), instance('b', '[slow]')].join('\n'),
    );
    const result = await taskloop(['eval', suite, '--model', 'oracle', '--tags', 'oneline']);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toContain(
      "taskloop eval: --tags oneline: no instance of suite tiers has the tags oneline; its instances' tags: one-line, slow (fix: pass one of those, or add tags: [...] to its instances)",
    );
  });
});
