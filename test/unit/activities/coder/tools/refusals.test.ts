// The tools refuse what cannot help (issue 52): an edit that changes nothing says so, read_file's line numbers pasted
// back are taken out, a coached run's edit of a test file the task does not allow is refused with the reason, and a
// finish before any change is refused once.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteFileTool, moveFileTool } from '../../../../../activities/coder/tools/file-moves.js';
import { finishTool } from '../../../../../activities/coder/tools/finish.js';
import { withoutReadFileNumbers } from '../../../../../activities/coder/tools/line-numbers.js';
import { readFileTool } from '../../../../../activities/coder/tools/read-file.js';
import { replaceInFileTool } from '../../../../../activities/coder/tools/replace-in-file.js';
import type { ToolContext } from '../../../../../activities/coder/tools/types.js';
import { writeFileTool } from '../../../../../activities/coder/tools/write-file.js';
import { createTempRepo, createToolContext, type TempRepo } from '../fixtures.js';

const calc = 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n';
const tests = 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n';

let t: TempRepo;
beforeEach(async () => {
  t = await createTempRepo({ 'calc.py': calc, 'tests/test_calc.py': tests });
});
afterEach(() => t.cleanup());

const read = (file: string) => readFile(path.join(t.repo, file), 'utf8');
const coached = (refuseTestEdits = true): ToolContext => ({
  ...createToolContext(t.repo),
  coaching: { refuseTestEdits, refuseEmptyFinish: true },
});

describe('an edit that changes nothing', () => {
  it('is refused when old equals new, saying nothing changed (it answered "replaced 1 occurrence")', async () => {
    const context = createToolContext(t.repo);
    const same = { path: 'calc.py', old: '    return a - b', new: '    return a - b' };
    const outcome = await replaceInFileTool.run(same, context);
    expect(outcome.reply).toBe(
      'error: old and new are the same text, so nothing would change in calc.py; nothing was changed. Put the corrected code in new.',
    );
    expect(context.changedFiles.size).toBe(0);
    expect(context.telemetry).toMatchObject({ patchSuccesses: 0, mutationOperations: 0 });
  });

  it('is refused when the lines old matched already read as new', async () => {
    const context = createToolContext(t.repo);
    // Whitespace differs, so old and new differ as text, yet the file's lines already are new.
    const outcome = await replaceInFileTool.run(
      { path: 'calc.py', old: 'return   a - b', new: '    return a - b' },
      context,
    );
    expect(outcome.reply).toMatch(/^error: the lines old matched at line 2 of calc.py already read as new; nothing/);
    expect(context.changedFiles.size).toBe(0);
  });

  it('adds nothing when an edit whose new holds old (lines before and after it) is sent again', async () => {
    const context = createToolContext(t.repo);
    const wrap = { path: 'calc.py', old: '    return a - b', new: '    # checked\n    return a - b\n    # done' };
    expect((await replaceInFileTool.run(wrap, context)).reply).toBe('replaced 1 occurrence in calc.py at line 2');
    const again = await replaceInFileTool.run(wrap, context);
    expect(again.reply).toBe(
      'note: nothing to change: calc.py already reads as new at line 2 (an earlier edit made it): run_tests to check it, then finish.',
    );
    expect(await read('calc.py')).toBe(calc.replace('    return a - b', wrap.new));
    expect(context.telemetry).toMatchObject({ patchSuccesses: 1, mutationOperations: 1 });
  });
});

describe("read_file's line numbers pasted back", () => {
  it('are taken out of write_file content, and the reply says so', async () => {
    const context = createToolContext(t.repo);
    const shown = (await readFileTool.run({ path: 'calc.py' }, context)).reply.split('\n').slice(1).join('\n');
    const fixed = shown.replace('a - b', 'a + b');
    const outcome = await writeFileTool.run({ path: 'calc.py', content: `${fixed}\n` }, context);
    expect(outcome.reply).toBe(
      'wrote calc.py (6 lines) (the read_file line numbers at the start of each line of content were removed: they are not part of the file)',
    );
    expect(await read('calc.py')).toBe(calc.replace('a - b', 'a + b'));
  });

  it('are taken out of replace_in_file old and new', async () => {
    const context = createToolContext(t.repo);
    const outcome = await replaceInFileTool.run(
      { path: 'calc.py', old: '1\tdef add(a, b):\n2\t    return a - b', new: '1\tdef add(a, b):\n2\t    return a + b' },
      context,
    );
    expect(outcome.reply).toMatch(/^replaced 1 occurrence in calc.py at line 1 \(the read_file line numbers .* of old/);
    expect(await read('calc.py')).toBe(calc.replace('a - b', 'a + b'));
  });

  it('are left alone when the lines are not numbered in sequence (real content)', () => {
    expect(withoutReadFileNumbers('3\tx\n7\ty\n')).toEqual({ text: '3\tx\n7\ty\n', stripped: false });
    expect(withoutReadFileNumbers('a\n1\tb\n').stripped).toBe(false);
    expect(withoutReadFileNumbers('10\tx\n11\ty')).toEqual({ text: 'x\ny', stripped: true });
    // A bare first line before two or more numbered ones in sequence (the 1.5B quoted a function so).
    expect(withoutReadFileNumbers('def f():\n16\t    a\n17\t    b')).toEqual({
      text: 'def f():\n    a\n    b',
      stripped: true,
    });
    expect(withoutReadFileNumbers('def f():\n16\t    a').stripped).toBe(false);
  });
});

describe('an edit of a test file the task does not allow', () => {
  it('is refused at every writing tool of a coached run, naming the file and the reason, and nothing changes', async () => {
    const context = coached();
    const replies = [
      (await writeFileTool.run({ path: 'tests/test_calc.py', content: 'def test_add():\n    pass\n' }, context)).reply,
      (await replaceInFileTool.run({ path: 'tests/test_calc.py', old: '== 3', new: '== -1' }, context)).reply,
      (await deleteFileTool.run({ path: 'tests/test_calc.py' }, context)).reply,
      (await moveFileTool.run({ from: 'tests/test_calc.py', to: 'old_test.py' }, context)).reply,
      (await writeFileTool.run({ path: 'conftest.py', content: '' }, context)).reply,
    ];
    for (const reply of replies)
      expect(reply).toMatch(
        /^error: refused: (tests\/test_calc|conftest)\.py is a test file, and this task does not allow test edits \(allowTestEdits is false\); nothing was changed\./,
      );
    expect(await read('tests/test_calc.py')).toBe(tests);
    expect(context.changedFiles.size).toBe(0);
    expect(context.telemetry.refusedToolCalls).toBe(5);
  });

  it('goes ahead when the task allows test edits, or the run is not coached', async () => {
    for (const context of [coached(false), createToolContext(t.repo)]) {
      await writeFile(path.join(t.repo, 'tests/test_calc.py'), tests);
      const outcome = await replaceInFileTool.run({ path: 'tests/test_calc.py', old: '== 3', new: '== 3.0' }, context);
      expect(outcome.reply).toMatch(/^replaced 1 occurrence/);
    }
  });
});

describe('finish before any change', () => {
  it('is refused once with why in a coached run, then accepted', async () => {
    const context = coached();
    const first = await finishTool.run({ summary: 'Fixed calc.add. The tests passed.' }, context);
    expect(first.finished).toBeUndefined();
    expect(first.reply).toMatch(/^error: finish refused: no file has been changed yet, so the goal is not done/);
    const second = await finishTool.run({ summary: 'No change is needed: add is right.' }, context);
    expect(second.finished).toEqual({ summary: 'No change is needed: add is right.' });
  });

  it('is accepted at once after a change, or in a run that is not coached', async () => {
    const context = coached();
    await replaceInFileTool.run({ path: 'calc.py', old: 'a - b', new: 'a + b' }, context);
    expect((await finishTool.run({ summary: 'fixed' }, context)).finished).toBeDefined();
    expect((await finishTool.run({ summary: 'done' }, createToolContext(t.repo))).finished).toBeDefined();
  });
});
