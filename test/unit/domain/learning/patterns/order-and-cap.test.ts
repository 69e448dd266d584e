import { describe, expect, it } from 'vitest';
import {
  byStrength,
  capPatterns,
  classifyLines,
  classifyTestOutput,
  makePattern,
  maxPatterns,
} from '../../../../../domain/learning/patterns/index.js';

const p = (type: Parameters<typeof makePattern>[0], confidence: number, symbols: string[] = []) =>
  makePattern(type, confidence, symbols, `${type} ${symbols.join(' ')}`);

describe('pattern order: confidence, then specificity, then output order', () => {
  it('puts the more specific of equally confident patterns first, and keeps output order after that', () => {
    const patterns = [
      p('complex_behavior', 0.7),
      p('wrong_constant', 0.7, ['a']),
      p('missing_impl', 0.9, ['m.f', 'm']),
      p('api_mismatch', 0.9, ['f']),
      p('cross_dep', 0.7, ['b']),
    ];
    expect([...patterns].sort(byStrength).map((x) => x.type)).toEqual([
      'missing_impl',
      'api_mismatch',
      'wrong_constant',
      'cross_dep',
      'complex_behavior',
    ]);
  });
});

describe('capPatterns', () => {
  it(`keeps at most ${maxPatterns}, never dropping one more confident than a kept one`, () => {
    const patterns = [
      p('unknown', 0),
      ...['a', 'b', 'c', 'd', 'e', 'f'].map((s, i) => p('wrong_constant', 0.5 + i * 0.05, [s])),
    ];
    const kept = capPatterns(patterns);
    expect(kept).toHaveLength(5);
    const lowestKept = Math.min(...kept.map((x) => x.confidence));
    expect(patterns.filter((x) => !kept.includes(x)).every((x) => x.confidence <= lowestKept)).toBe(true);
  });

  it('keeps one pattern of each type first among equally confident ones, so a tie cannot crowd complex_behavior out', () => {
    const lines = ['a', 'b', 'c', 'd', 'e'].map((s) => p('wrong_constant', 0.7, [s]));
    const kept = capPatterns([...lines, p('complex_behavior', 0.7)]);
    expect(kept.map((x) => x.type)).toEqual([
      'wrong_constant',
      'wrong_constant',
      'wrong_constant',
      'wrong_constant',
      'complex_behavior',
    ]);
  });

  it('keeps everything when under the cap', () => {
    expect(capPatterns([p('cross_dep', 0.8, ['x'])], 5)).toHaveLength(1);
  });
});

describe('syntax errors', () => {
  const section = (test: string) =>
    [
      `____ ERROR collecting tests/${test}.py ____`,
      'E     File "/w/calc.py", line 3',
      'E       def add(a, b)',
      'E                    ^',
      "E   SyntaxError: expected ':'",
    ].join('\n');

  it('are one syntax_error pattern per location however many modules they break, and never complex_behavior', () => {
    const output = Array.from({ length: 13 }, (_, i) => section(`test_${i}`)).join('\n');
    const patterns = classifyTestOutput({ output, counts: { passed: 0, failed: 0, errors: 13 } });
    expect(patterns).toEqual([
      {
        type: 'syntax_error',
        confidence: 0.95,
        symbols: ['/w/calc.py:3', '/w/calc.py'],
        evidence: "E   SyntaxError: expected ':' (/w/calc.py:3)",
        strategy: 'show_error_location',
      },
    ]);
  });

  it('reads IndentationError and TabError too, and a location from a plain traceback', () => {
    expect(classifyLines('  File "m.py", line 7\n    x = 1\nIndentationError: unexpected indent')).toMatchObject([
      { type: 'syntax_error', symbols: ['m.py:7', 'm.py'] },
    ]);
    expect(classifyLines('TabError: inconsistent use of tabs')).toMatchObject([{ type: 'syntax_error', symbols: [] }]);
  });
});

describe('environment causes read as test_infra', () => {
  it('a module outside the repository, a refused connection, a named or os.environ variable', () => {
    expect(classifyLines("E   ModuleNotFoundError: No module named 'yaml'", ['calc'])).toMatchObject([
      { type: 'test_infra', confidence: 0.8, symbols: ['yaml'] },
    ]);
    expect(classifyLines("E   ModuleNotFoundError: No module named 'calc.x'", ['calc'])).toMatchObject([
      { type: 'cross_dep', symbols: ['calc.x'] },
    ]);
    expect(classifyLines('E   ConnectionRefusedError: [Errno 111] Connection refused')).toMatchObject([
      { type: 'test_infra', confidence: 0.85 },
    ]);
    expect(classifyLines('E   urllib.error.URLError: <urlopen error [Errno 111] Connection refused>')).toMatchObject([
      { type: 'test_infra' },
    ]);
    expect(classifyLines('E   RuntimeError: environment variable API_KEY is not set')).toMatchObject([
      { type: 'test_infra', symbols: ['API_KEY'] },
    ]);
    expect(
      classifyLines(">       os.environ['TOKEN']\n<frozen os>:679: in __getitem__\nE   KeyError: 'TOKEN'"),
    ).toMatchObject([{ type: 'test_infra', symbols: ['TOKEN'] }]);
  });

  it('but not a KeyError of an ordinary dict, nor one in a later section than the os.environ mention', () => {
    expect(classifyLines("E   KeyError: 'name'")).toEqual([]);
    expect(classifyLines(">       os.environ['TOKEN']\n____ test_other ____\nE   KeyError: 'name'")).toEqual([]);
  });
});
