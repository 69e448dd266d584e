import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  boundTranscript,
  definableSymbols,
  definitionPattern,
  extractSymbols,
  fileKind,
  fitToBudget,
  isSourceOrTest,
  rankRelevantFiles,
} from '../../../domain/context-budget.js';

describe('rankRelevantFiles', () => {
  const files = ['README.md', 'src/cache.py', 'src/store.py', 'src/util.py', 'tests/test_cache.py'];

  it('ranks files named in the goal and in failure evidence first, and leaves unrelated files out', () => {
    const ranked = rankRelevantFiles(files, [
      'fix #218: cache_key is ignored by the cache',
      'FAILED tests/test_cache.py::test_key - AssertionError',
    ]);
    expect(ranked[0]).toBe('tests/test_cache.py');
    expect(ranked).toContain('src/cache.py');
    expect(ranked).not.toContain('src/util.py');
  });

  it('finds symbols but not common words', () => {
    expect(extractSymbols(['Fix the cache_key in src/cache.py'])).toEqual(['cache_key', 'src', 'cache.py']);
  });
});

describe('fitToBudget', () => {
  it('leaves a context under budget alone', () => {
    const sections = [{ text: 'goal' }, { text: 'map', trimOrder: 1 }];
    expect(fitToBudget(sections, 100)).toEqual(sections);
  });

  it('trims the oldest part first, then the largest of equals, never the untrimmable ones', () => {
    const goal = { text: 'g'.repeat(400) };
    const oldAttempt = { text: 'o'.repeat(2000), trimOrder: 1 };
    const repoMap = { text: 'm'.repeat(3000), trimOrder: 2 };
    const small = { text: 's'.repeat(500), trimOrder: 2 };
    const fitted = fitToBudget([goal, oldAttempt, repoMap, small], 800);
    expect(fitted[0]?.text).toBe(goal.text);
    expect(fitted[1]?.text).toBe('[trimmed to fit the context budget]');
    expect(fitted[2]?.text.startsWith('mmm')).toBe(true);
    expect(fitted[2]?.text.endsWith('[trimmed to fit the context budget]')).toBe(true);
    expect(fitted[3]?.text).toBe(small.text);
    expect(fitted.reduce((sum, section) => sum + section.text.length, 0)).toBeLessThanOrEqual(3200);
  });
});

describe('boundTranscript', () => {
  const pointer = (index: number) => `see message ${index}`;
  const long = 'x'.repeat(4000);
  const messages = [
    { role: 'system', content: 'rules' },
    { role: 'user', content: 'goal' },
    { role: 'tool', name: 'run_tests', content: `tests failed ${long}` },
    { role: 'tool', name: 'read_file', content: long },
    { role: 'tool', name: 'read_file', content: long },
  ];

  it('sends everything while it fits', () => {
    expect(boundTranscript(messages, { maxTokens: 10_000, keepLatest: ['run_tests'], pointer })).toEqual(messages);
  });

  it('shrinks the oldest outputs first and keeps the rules, the goal and the latest test run whole', () => {
    const bounded = boundTranscript(messages, { maxTokens: 2_200, keepLatest: ['run_tests'], keepRecent: 1, pointer });
    expect(bounded.map((message) => message.content.length < 200)).toEqual([true, true, false, true, false]);
    expect(bounded[3]?.content).toBe('[read_file output of 4000 characters shrunk: see message 3]');
    expect(bounded[2]?.content.startsWith('tests failed')).toBe(true);
  });

  it("shrinks an older reply's long text (calls written as text), keeping its calls and a short reply whole", () => {
    const plan = '```json\n{"name": "run_tests", "arguments": {}}\n```\n'.repeat(60);
    const call = { id: 'text_2_0', name: 'run_tests', arguments: {} };
    const replies = [
      { role: 'system', content: 'rules' },
      { role: 'user', content: 'goal' },
      { role: 'assistant', content: plan, toolCalls: [call] },
      { role: 'tool', name: 'run_tests', content: 'tests failed' },
      { role: 'assistant', content: 'I will read calc.py.', toolCalls: [call] },
      { role: 'tool', name: 'run_tests', content: 'tests failed' },
    ];
    const bounded = boundTranscript(replies, { maxTokens: 200, keepLatest: ['run_tests'], keepRecent: 2, pointer });
    expect(bounded[2]).toEqual({
      role: 'assistant',
      content: `[reply of ${plan.length} characters shrunk: see message 2]`,
      toolCalls: [call],
    });
    expect(bounded[4]?.content).toBe('I will read calc.py.');
  });
});

describe('rankRelevantFiles with definitions and file kinds', () => {
  it('ranks the file defining a named symbol first, and CI configs and issue templates after every source file', () => {
    const files = [
      '.github/ISSUE_TEMPLATE/bug_report.md',
      '.github/workflows/ci.yml',
      'src/pkg/core.py',
      'src/pkg/cache.py',
    ];
    const ranked = rankRelevantFiles(
      files,
      ['issue #387: the workflows fail in cache for `_DescriptorBase`'],
      5,
      new Map([['src/pkg/core.py', 1]]),
    );
    expect(ranked.slice(0, 2)).toEqual(['src/pkg/core.py', 'src/pkg/cache.py']);
    // A word of a CI config's path matching a word of the goal is no evidence: only a file named outright counts.
    expect(ranked).not.toContain('.github/workflows/ci.yml');
  });

  it('ranks the module a dotted goal names over data files whose path words match the goal (tomli, recorded)', () => {
    // The listing of tomli at the parent of 4e245a4 (838 files, 700 of them .toml fixtures) and that instance's goal:
    // before, `tomli.loads` was one symbol, so `loads` was never looked up and five .toml fixtures were ranked instead.
    const files = readFileSync(new URL('../../fixtures/small-coder/tomli-files.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter(Boolean);
    const goal =
      "tomli.loads(b'...') (bytes, or any non-str) raises AttributeError; it should raise TypeError saying a str object was expected, naming the type given.";
    expect(definableSymbols([goal])).toContain('loads');
    // Without the definitions (git grep), tomli's modules tie on the name `tomli`; no fixture comes in.
    expect(rankRelevantFiles(files, [goal], 5)).toContain('src/tomli/_parser.py');
    expect(rankRelevantFiles(files, [goal], 5).filter((file) => file.endsWith('.toml'))).toEqual([]);
    expect(rankRelevantFiles(files, [goal], 5, new Map([['src/tomli/_parser.py', 1]]))[0]).toBe('src/tomli/_parser.py');
  });

  it('puts a module before a test of the same score, and tells file kinds apart', () => {
    expect(rankRelevantFiles(['tests/test_cache.py', 'src/cache.py'], ['the cache is wrong'])).toEqual([
      'src/cache.py',
      'tests/test_cache.py',
    ]);
    expect(
      ['src/a.py', 'tests/test_a.py', 'a_test.py', 'conftest.py', 'tests/data/x.toml', 'README.md'].map(fileKind),
    ).toEqual(['module', 'test', 'test', 'test', 'test-data', 'other']);
  });

  it('tells source and test files from the rest', () => {
    expect(isSourceOrTest('src/a.py')).toBe(true);
    expect(isSourceOrTest('tests/data/input.json')).toBe(true);
    expect(isSourceOrTest('.github/ISSUE_TEMPLATE/bug_report.md')).toBe(false);
    expect(isSourceOrTest('docs/index.rst')).toBe(false);
  });

  it('finds definable names only, and builds a git grep pattern of their definitions', () => {
    expect(definableSymbols(['Fix `_DescriptorBase` in src/cache.py'])).toEqual(['_DescriptorBase']);
    expect(definitionPattern(['cache_key', 'Store'])).toBe(
      '^[[:space:]]*(async[[:space:]]+)?(def|class)[[:space:]]+(cache_key|Store)[^A-Za-z0-9_]',
    );
  });
});
