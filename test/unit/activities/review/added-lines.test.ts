import { describe, expect, it } from 'vitest';
import { parseAddedLines } from '../../../../activities/review/added-lines.js';

const diff = [
  'diff --git a/a.py b/a.py',
  'index 1..2 100644',
  '--- a/a.py',
  '+++ b/a.py',
  '@@ -1,3 +1,4 @@',
  ' keep',
  '-gone',
  '+++ looks like a header',
  '+--- and so does this',
  ' tail',
  'diff --git a/old.txt b/old.txt',
  'deleted file mode 100644',
  '--- a/old.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-bye',
  'diff --git a/my file.txt b/my file.txt',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/my file.txt\t',
  '@@ -0,0 +1 @@',
  '+hello',
  '\\ No newline at end of file',
  '',
].join('\n');

describe('parseAddedLines', () => {
  it('returns added lines with their new line numbers, never mistaking content for headers', () => {
    expect(parseAddedLines(diff)).toEqual([
      { file: 'a.py', line: 2, text: '++ looks like a header' },
      { file: 'a.py', line: 3, text: '--- and so does this' },
      { file: 'my file.txt', line: 1, text: 'hello' },
    ]);
  });
});
