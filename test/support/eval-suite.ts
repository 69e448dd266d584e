// A tiny real eval suite for tests: a temp git repository with two bugs and an upstream-style fix commit, and a suite
// file with one instance derived from that fix commit and one written out (base ref, tests, oracle turns).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { turn, type ScriptTurn } from './calc-project.js';
import { makeRepo, makeTempDir, writeFiles } from './git-repo.js';

export const evalRepoFiles = {
  'calc.py': 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n',
  'text.py': 'def shout(s):\n    return s.lower()\n',
  'tests/__init__.py': '',
  'tests/test_calc.py': 'from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n',
  'tests/test_text.py': 'from text import shout\n\n\ndef test_shout():\n    assert shout("hi") == "HI"\n',
};

/** The fix of add as upstream made it: the code and a regression test, in one commit. */
const addFix = {
  'calc.py': 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n',
  'tests/test_calc.py':
    'from calc import add, mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n\n\ndef test_add_negative():\n    assert add(-2, 3) == 1\n',
};

/** Fixes shout and, on the way, breaks mul: the task's own tests (test_text.py only) pass, PASS_TO_PASS does not. */
export const breakingTurns = (): ScriptTurn[] => [
  turn('replace_in_file', { path: 'text.py', old: 's.lower()', new: 's.upper()' }),
  turn('replace_in_file', { path: 'calc.py', old: 'return a * b', new: 'return a + b' }),
  turn('finish', { summary: 'shout shouts' }),
];

export interface TinySuite {
  name: string;
  dir: string;
  repo: string;
  baseSha: string;
  fixSha: string;
  suiteFile: string;
}

/** Writes the repository and `suite.yaml` (instances: fix-add from the fix commit, fix-shout written out). */
export async function makeTinySuite(name = 'tiny'): Promise<TinySuite> {
  const repo = await makeRepo(evalRepoFiles);
  const git = simpleGit(repo);
  const baseSha = (await git.revparse(['HEAD'])).trim();
  await writeFiles(repo, addFix);
  await git.raw(['commit', '-qam', 'fix add: it subtracted (#1)']);
  const fixSha = (await git.revparse(['HEAD'])).trim();
  const dir = await makeTempDir();
  const oracle = {
    coder: [
      turn('replace_in_file', { path: 'text.py', old: 's.lower()', new: 's.upper()' }),
      turn('finish', { summary: 'shout' }),
    ],
  };
  await writeFile(path.join(dir, 'shout-oracle.json'), JSON.stringify(oracle));
  const suiteFile = path.join(dir, 'suite.yaml');
  await writeFile(
    suiteFile,
    [
      '# yaml-language-server: $schema=../schemas/eval-suite.schema.json',
      `name: ${name}`,
      'instances:',
      '  - id: fix-add',
      `    repo: ${repo}`,
      `    fixCommit: ${fixSha}`,
      '    goal: "add(-2, 3) returns -5: add must add"',
      '    testCommand: [python3, -m, pytest, tests/test_calc.py]',
      '    passToPass: [tests/test_calc.py::test_mul]',
      '  - id: fix-shout',
      `    repo: ${repo}`,
      `    baseRef: ${baseSha}`,
      '    goal: "shout(\\"hi\\") must return \\"HI\\""',
      '    testCommand: [python3, -m, pytest, tests/test_text.py]',
      '    failToPass: [tests/test_text.py::test_shout]',
      '    passToPass: [tests/test_calc.py::test_mul]',
      '    oracle: shout-oracle.json',
      '',
    ].join('\n'),
  );
  return { name, dir, repo, baseSha, fixSha, suiteFile };
}
