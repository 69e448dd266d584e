import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readFailureEvidence } from '../../../../domain/evidence-first/failure-evidence.js';
import { goalNames, localise } from '../../../../domain/evidence-first/localise.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/small-coder/${name}`, import.meta.url), 'utf8');
const tomliFiles = new Set(fixture('tomli-files.txt').split('\n').filter(Boolean));
const isRepoFile = (file: string) => tomliFiles.has(file);

describe('localise (tomli, recorded)', () => {
  it('shows the function the traceback ends in first, then the failing test, each whole and numbered', () => {
    const goal =
      "tomli.load() on a file opened in text mode fails with a confusing AttributeError ('str' object has no attribute 'decode'); it should raise TypeError telling to open the file in binary mode, e.g. open('foo.toml', 'rb').";
    const evidence = readFailureEvidence({ output: fixture('tomli-load-text-mode/pytest.out'), isRepoFile });
    const files = new Map([
      ['src/tomli/_parser.py', fixture('tomli-load-text-mode/_parser.py')],
      ['tests/test_misc.py', fixture('tomli-load-text-mode/test_misc.py')],
    ]);
    const { snippets, omitted } = localise({ evidence, goalTexts: [goal], files, maxChars: 8_000 });
    expect(snippets.map((s) => `${s.file} ${s.name} ${s.why}`)).toEqual([
      'src/tomli/_parser.py load traceback',
      'tests/test_misc.py test_incorrect_load failing test',
    ]);
    expect(snippets[0]?.text).toContain('77\t    s = __fp.read().decode()');
    expect(snippets[0]?.text.split('\n')[0]).toMatch(/^\d+\tdef load\(/);
    expect(omitted).toEqual([]);
  });

  it('brings the definition a dotted goal names when no traceback reaches the code (tomli loads of bytes)', () => {
    const goal =
      "tomli.loads(b'...') (bytes, or any non-str) raises AttributeError; it should raise TypeError saying a str object was expected, naming the type given.";
    const evidence = readFailureEvidence({
      output: fixture('tomli-loads-typeerror/pytest.out'),
      failingIds: ['tests/test_error.py::TestError::test_type_error'],
      isRepoFile,
    });
    const files = new Map([
      ['src/tomli/_parser.py', fixture('tomli-loads-typeerror/_parser.py')],
      ['tests/test_error.py', fixture('tomli-loads-typeerror/test_error.py')],
    ]);
    const { snippets } = localise({ evidence, goalTexts: [goal], files, maxChars: 8_000 });
    expect(snippets[0]).toMatchObject({ file: 'src/tomli/_parser.py', name: 'loads', why: 'goal' });
    expect(snippets.map((s) => s.name)).toContain('test_type_error');
    expect(goalNames([goal])[0]).toBe('tomli');
    expect(goalNames([goal]).indexOf('loads')).toBeLessThan(goalNames([goal]).indexOf('should'));
  });

  it('leaves out what does not fit and names it for read_file; the first snippet is cut, never dropped', () => {
    const evidence = readFailureEvidence({ output: fixture('tomli-load-text-mode/pytest.out'), isRepoFile });
    const files = new Map([
      ['src/tomli/_parser.py', fixture('tomli-load-text-mode/_parser.py')],
      ['tests/test_misc.py', fixture('tomli-load-text-mode/test_misc.py')],
    ]);
    const { snippets, omitted } = localise({ evidence, goalTexts: ['x'], files, maxChars: 120 });
    expect(snippets).toHaveLength(1);
    expect(snippets[0]?.text.length).toBeLessThanOrEqual(120);
    expect(snippets[0]?.whole).toBeDefined();
    expect(omitted).toEqual([expect.stringMatching(/^tests\/test_misc\.py:\d+-\d+ \(test_incorrect_load\)$/)]);
  });

  it('shows the part of a long function around its frame, and says how long it is', () => {
    const body = Array.from({ length: 200 }, (_, i) => `    x${i} = ${i}`);
    const text = ['def long():', ...body].join('\n');
    const evidence = { failing: [], assertions: [], frames: [{ file: 'm.py', line: 150 }] };
    const { snippets } = localise({
      evidence,
      goalTexts: [],
      files: new Map([['m.py', text]]),
      maxChars: 10_000,
      maxBlockLines: 20,
    });
    expect(snippets[0]).toMatchObject({ start: 140, end: 159, whole: { start: 1, end: 201 } });
  });
});
