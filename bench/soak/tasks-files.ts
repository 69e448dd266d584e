// Writes each soak project's repository, scripts and tasks file (the same calc bug in every task, on its own branch).
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { SoakKind, SoakTask } from './plan.js';

const run = promisify(execFile);

const calc = {
  'calc.py': 'def add(a, b):\n    return a - b\n',
  'tests/__init__.py': '',
  'tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
};
const edit = (to: string) => ({
  content: '',
  tool_calls: [{ name: 'replace_in_file', arguments: { path: 'calc.py', old: 'return a - b', new: `return ${to}` } }],
});
const finish = { content: '', tool_calls: [{ name: 'finish', arguments: { summary: 'done' } }] };
const fix = [edit('a + b'), finish];
const wrong = [edit('a * b'), finish];
// A host lost mid-attempt (a worker killed) costs a new attempt on another host, beyond maxRetries: the scripts
// hold turns for such attempts too, each doing what the task's own attempts did.
const scripts: Record<SoakKind, unknown[]> = {
  pass: [...fix, ...fix, ...fix],
  dependant: [...fix, ...fix, ...fix],
  skipped: fix,
  retry: [...wrong, ...fix, ...fix, ...fix],
  fail: [...wrong, ...wrong, ...wrong],
};

export interface SoakProject {
  name: string;
  repo: string;
  file: string;
}

async function makeRepo(dir: string): Promise<void> {
  for (const [name, content] of Object.entries(calc)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  const git = (...args: string[]) => run('git', ['-C', dir, ...args]);
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('-c', 'user.name=soak', '-c', 'user.email=soak@example.invalid', 'commit', '-q', '-m', 'buggy calc');
}

export async function writeSoakProject(root: string, name: string, tasks: SoakTask[]): Promise<SoakProject> {
  const dir = path.join(root, name);
  const repo = path.join(dir, 'repo');
  await mkdir(repo, { recursive: true });
  await makeRepo(repo);
  for (const [kind, turns] of Object.entries(scripts))
    await writeFile(path.join(dir, `${kind}.json`), JSON.stringify({ coder: turns }));
  const lines = [
    `project: ${name}`,
    `repo: ${repo}`,
    'defaults:',
    '  concurrency: 4',
    '  testCommand: [python3, -m, pytest, -q, -p, "no:cacheprovider"]',
    'milestones:',
    '  - id: m1',
    '    features:',
    '      - id: f1',
    '        tasks:',
    ...tasks.flatMap((task) => [
      `          - id: ${task.id}`,
      `            goal: "Fix add in calc.py (${task.id}, ${task.kind})"`,
      `            maxRetries: ${task.kind === 'retry' ? 1 : 0}`,
      `            models: { coder: "scripted:${task.kind}.json" }`,
      ...(task.dependsOn ? [`            dependsOn: [${task.dependsOn.join(', ')}]`] : []),
    ]),
  ];
  const file = path.join(dir, 'tasks.yaml');
  await writeFile(file, `${lines.join('\n')}\n`);
  return { name, repo, file };
}
