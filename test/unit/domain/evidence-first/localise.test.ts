import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readFailureEvidence } from '../../../../domain/evidence-first/failure-evidence.js';
import { goalNames, localise, qualifiedTargets } from '../../../../domain/evidence-first/localise.js';

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

describe("localise (boltons IndexedSet.index, recorded at the fix's base)", () => {
  // What taskloop eval's boltons-indexedset-index gave the 1.5B before: the head of IndexedSet (80 lines, nearly all
  // docstring) and listutils' index, never IndexedSet.index nor the _get_apparent_index it calls (the bug's line).
  const goal =
    'boltons.setutils.IndexedSet.index() gives wrong positions after several items were removed: in IndexedSet(range(10)), popping 8, 6, 4, 2, 0 in turn at the index index() gives pops other items.';
  const files = new Map([
    ['boltons/listutils.py', fixture('boltons-indexedset-index/listutils.py')],
    ['boltons/setutils.py', fixture('boltons-indexedset-index/setutils.py')],
    ['tests/test_setutils.py', fixture('boltons-indexedset-index/test_setutils.py')],
  ]);
  const evidence = {
    failing: ['tests/test_setutils.py::test_iset_index_method'],
    assertions: ['assert 4 == 7', ' +  where 7 = pop(-3)'],
    frames: [{ file: 'tests/test_setutils.py', line: 191 }],
  };

  it('shows the method a dotted name reaches, then the methods of its class it calls, before any bare name', () => {
    const { snippets } = localise({ evidence, goalTexts: [goal, ...evidence.assertions], files, maxChars: 12_000 });
    expect(snippets.slice(0, 2).map((s) => `${s.file} ${s.name} ${s.start}-${s.end} ${s.why}`)).toEqual([
      'boltons/setutils.py index 431-437 goal',
      'boltons/setutils.py _get_apparent_index 146-156 called',
    ]);
    expect(snippets[1]?.text).toContain('155\t            apparent_index -= d_stop + d_start');
    // The parts of the dotted name are not searched again: no head of IndexedSet, no index of another module.
    expect(snippets.map((s) => `${s.file} ${s.name}`)).not.toContain('boltons/setutils.py IndexedSet');
    expect(snippets.map((s) => `${s.file} ${s.name}`)).not.toContain('boltons/listutils.py index');
    expect(snippets.map((s) => s.name)).toContain('test_iset_index_method');
  });

  it('resolves a module path, a class path without a module, and leaves attribute chains and bare words alone', () => {
    const named = (text: string) => qualifiedTargets([text], files).map((t) => `${t.file} ${t.block.name}`);
    expect(named('boltons.setutils.IndexedSet.index()')).toEqual(['boltons/setutils.py index']);
    expect(named('IndexedSet.index')).toEqual(['boltons/setutils.py index']);
    expect(named('boltons.setutils.complement(x)')).toEqual(['boltons/setutils.py complement']);
    expect(named('BarrelList.insert')).toEqual(['boltons/listutils.py insert']);
    expect(named('self.item_list.sort or IndexedSet.missing and index')).toEqual([]);
    // pytest's repr names the class too: its head adds nothing beside the method.
    expect(named('<bound method IndexedSet.index of <boltons.setutils.IndexedSet object at 0x7f>>')).toEqual([
      'boltons/setutils.py index',
    ]);
  });

  it('shows a method named in the unshown rest of a long class whose head is shown already', () => {
    const body = Array.from({ length: 100 }, (_, i) => `    x${i} = ${i}`);
    const text = ['class BigThing:', ...body, '    def late(self):', '        return 1'].join('\n');
    const { snippets } = localise({
      evidence: { failing: [], assertions: [], frames: [] },
      goalTexts: ['BigThing is wrong, and so is late()'],
      files: new Map([['m.py', text]]),
      maxChars: 10_000,
      maxBlockLines: 20,
    });
    expect(snippets.map((s) => `${s.name} ${s.start}-${s.end}`)).toEqual(['BigThing 1-20', 'late 102-103']);
  });
});
