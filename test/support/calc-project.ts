// A small real Python project with a bug, and scripted coder turns that fix it (or fail to), for task tests.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeRepo, makeTempDir } from './git-repo.js';

export const buggyCalc = 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n';

export const calcFiles = {
  'calc.py': buggyCalc,
  'tests/__init__.py': '',
  'tests/test_calc.py':
    'from calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n',
};

export type ScriptTurn = { content?: string; tool_calls?: { name: string; arguments?: Record<string, unknown> }[] };

export const turn = (name: string, args: Record<string, unknown>, content = ''): ScriptTurn => ({
  content,
  tool_calls: [{ name, arguments: args }],
});

/** Coder turns: one edit, then finish. */
export const fixTurns = (summary = 'fixed add'): ScriptTurn[] => [
  turn('replace_in_file', { path: 'calc.py', old: 'return a - b', new: 'return a + b' }),
  turn('finish', { summary }),
];
/** Coder turns that make a wrong edit (tests still fail). */
export const wrongTurns = (): ScriptTurn[] => [
  turn('replace_in_file', { path: 'calc.py', old: 'return a - b', new: 'return a * b' }),
  turn('finish', { summary: 'changed add to multiply' }),
];

/**
 * A turn that plants tests/conftest.py, which makes add right whatever calc.py says; with `.gitignore` listing it
 * (calcIgnoringConftest), neither the path rules nor the commit see it: only the test node's removal stops it.
 */
export const plantConftest = (): ScriptTurn =>
  turn('write_file', { path: 'tests/conftest.py', content: 'import calc\n\ncalc.add = lambda a, b: a + b\n' });
export const calcIgnoringConftest = { ...calcFiles, '.gitignore': 'conftest.py\n' };

export async function makeCalcProject(
  script: Partial<Record<'coder' | 'reviewer' | 'judge', ScriptTurn[]>>,
  files: Record<string, string> = calcFiles,
) {
  const repo = await makeRepo(files);
  const dir = await makeTempDir();
  const scriptFile = path.join(dir, 'script.json');
  await writeFile(scriptFile, JSON.stringify(script, null, 2));
  return { repo, scriptFile, dir };
}
