import { describe, expect, it } from 'vitest';
import {
  classifyLines,
  classifyStructured,
  classifyTestOutput,
  failurePatternSchema,
  strategyByPattern,
  topPattern,
} from '../../../../../domain/learning/patterns/index.js';

const one = (line: string) => classifyLines(line);

describe('classifyLines', () => {
  it.each([
    ["E   ImportError: cannot import name 'mul' from 'calc' (/r/calc.py)", 'cross_dep', 0.95, ['calc.mul', 'calc']],
    [
      "ImportError: cannot import name 'a' from partially initialized module 'pkg.m' (most likely due to a circular import)",
      'cross_dep',
      0.95,
      ['pkg.m.a', 'pkg.m'],
    ],
    ["E   ModuleNotFoundError: No module named 'pkg.sub'", 'cross_dep', 0.8, ['pkg.sub']],
    ["E       NameError: name 'total' is not defined. Did you mean: 'tot'?", 'cross_dep', 0.6, ['total']],
    [
      "E   AttributeError: partially initialized module 'a' has no attribute 'b' (most likely due to a circular import)",
      'cross_dep',
      0.9,
      ['a.b', 'a'],
    ],
    ["E   AttributeError: module 'calc' has no attribute 'mul'", 'missing_impl', 0.9, ['calc.mul', 'calc']],
    ["E   AttributeError: type object 'Foo' has no attribute 'bar'", 'missing_impl', 0.9, ['Foo.bar', 'Foo']],
    ["E   AttributeError: 'Foo' object has no attribute 'bar'", 'missing_impl', 0.9, ['Foo.bar', 'Foo']],
    ["E   AssertionError: assert 'hello' == 'hi'", 'wrong_constant', 0.85, ["'hello'", "'hi'"]],
    ['E   assert 2 == 3', 'wrong_constant', 0.85, ['2', '3']],
    ['E   assert -1.5 == None', 'wrong_constant', 0.85, ['-1.5', 'None']],
    ['E   assert 4 != 4', 'wrong_constant', 0.7, ['4', '4']],
    ["AssertionError: 'abc' != 'abd'", 'wrong_constant', 0.7, ["'abc'", "'abd'"]],
    ['E   AssertionError: Lists differ: [1] != [2]', 'wrong_constant', 0.7, ['[1]', '[2]']],
    ['E   TypeError: add() takes 2 positional arguments but 3 were given', 'api_mismatch', 0.9, ['add']],
    [
      'E   TypeError: Foo.__init__() takes from 1 to 2 positional arguments but 3 were given',
      'api_mismatch',
      0.9,
      ['Foo.__init__'],
    ],
    ['E   TypeError: Foo() takes no arguments', 'api_mismatch', 0.9, ['Foo']],
    ["E   TypeError: add() got an unexpected keyword argument 'c'", 'api_mismatch', 0.9, ['add', 'c']],
    [
      "E   TypeError: add() missing 2 required positional arguments: 'a' and 'b'",
      'api_mismatch',
      0.9,
      ['add', 'a', 'b'],
    ],
    ["E   ModuleNotFoundError: No module named 'tests.helpers'", 'test_infra', 0.95, ['tests.helpers']],
    ["E   ModuleNotFoundError: No module named 'tests'", 'test_infra', 0.95, ['tests']],
    ["ModuleNotFoundError: No module named 'conftest'", 'test_infra', 0.95, ['conftest']],
    [
      "E   ImportError: cannot import name 'make' from 'tests.helpers' (/r/tests/helpers.py)",
      'test_infra',
      0.9,
      ['tests.helpers.make', 'tests.helpers'],
    ],
    ["ImportError while loading conftest '/r/tests/conftest.py'.", 'test_infra', 0.9, ['/r/tests/conftest.py']],
    ["E       fixture 'db' not found", 'test_infra', 0.9, ['db']],
  ])('classifies %s', (line, type, confidence, symbols) => {
    expect(one(line)).toMatchObject([{ type, confidence, symbols }]);
  });

  it('reads pytest short-summary and --tb=line prefixes', () => {
    expect(
      one("FAILED test_b.py::test_mod - AttributeError: module 'calc' has no attribute 'mul'")[0]!.symbols[0],
    ).toBe('calc.mul');
    expect(one("/r/test_b.py:2: AttributeError: module 'calc' has no attribute 'mul'")[0]!.symbols[0]).toBe('calc.mul');
  });

  it('ignores a summary line that pytest cut before the closing quote', () => {
    expect(one("FAILED test_b.py::test_mod - AttributeError: module 'calc' has no attrib...")).toEqual([]);
  });

  it('ignores indented source lines and the diff lines of a string comparison', () => {
    const output = [
      '    def test_ne():',
      '        assert x != y',
      "E     - ImportError: cannot import name 'x' from 'y'",
      "E     + ModuleNotFoundError: No module named 'z'",
    ].join('\n');
    expect(classifyLines(output)).toEqual([]);
  });

  it('ignores comparisons of non-literal values with ==', () => {
    expect(one('E   assert [1, 2] == [1, 3]')).toEqual([]);
  });

  it('strips colour codes before matching', () => {
    expect(one("\u001b[31mE   ModuleNotFoundError: No module named 'numpy'\u001b[0m")[0]!.symbols).toEqual(['numpy']);
  });

  it('keeps one pattern per (type, first symbol) and the most confident of them', () => {
    const output = [
      "E   ImportError: cannot import name 'mul' from 'calc'",
      "E   ImportError: cannot import name 'mul' from 'calc'",
      "E   ImportError: cannot import name 'div' from 'calc'",
    ].join('\n');
    expect(classifyLines(output).map((p) => p.symbols[0])).toEqual(['calc.mul', 'calc.div']);
  });

  it('cuts evidence to 200 characters', () => {
    const line = `E   ModuleNotFoundError: No module named '${'x'.repeat(300)}'`;
    const [pattern] = one(line);
    expect(pattern!.evidence).toHaveLength(200);
    expect(pattern!.symbols[0]).toHaveLength(300);
  });
});

describe('classifyStructured', () => {
  it('calls more than 5 failures with a pass rate under 50% complex_behavior', () => {
    expect(classifyStructured({ passed: 5, failed: 6, errors: 0 })).toMatchObject([
      { type: 'complex_behavior', confidence: 0.7, strategy: 'increase_tests_shown' },
    ]);
    expect(classifyStructured({ passed: 0, failed: 3, errors: 3 })[0]!.type).toBe('complex_behavior');
  });

  it('does not call exactly 5 failures complex_behavior', () => {
    expect(classifyStructured({ passed: 0, failed: 5, errors: 0 })).toEqual([]);
  });

  it('does not call a pass rate of exactly 50% complex_behavior', () => {
    expect(classifyStructured({ passed: 6, failed: 6, errors: 0 })).toEqual([]);
  });

  it('calls exactly 80% import errors one cross_dep root cause', () => {
    const types = ['ImportError', 'ModuleNotFoundError', 'ImportError', 'ImportError', 'AssertionError'];
    expect(classifyStructured(undefined, types)).toMatchObject([{ type: 'cross_dep', confidence: 0.9, symbols: [] }]);
  });

  it('does not call 75% import errors a root cause', () => {
    expect(classifyStructured(undefined, ['ImportError', 'ImportError', 'ImportError', 'TypeError'])).toEqual([]);
  });
});

describe('classifyTestOutput', () => {
  it('adds structured patterns only for types the lines did not show, and sorts by confidence', () => {
    const output = "E   ModuleNotFoundError: No module named 'numpy'\nE   assert 1 == 2";
    const patterns = classifyTestOutput({
      output,
      counts: { passed: 0, failed: 6, errors: 0 },
      failureTypes: ['ImportError', 'ImportError', 'ImportError', 'ImportError', 'ImportError'],
    });
    // The line-level cross_dep (0.8) stays; the structured cross_dep (0.9) is not added.
    expect(patterns.map((p) => [p.type, p.confidence])).toEqual([
      ['wrong_constant', 0.85],
      ['cross_dep', 0.8],
      ['complex_behavior', 0.7],
    ]);
  });

  it('returns one novel unknown pattern when a failure matches nothing', () => {
    const output = 'E   ZeroDivisionError: division by zero\n1 failed in 0.01s';
    const patterns = classifyTestOutput({ output, counts: { passed: 0, failed: 1, errors: 0 } });
    expect(patterns).toEqual([
      {
        type: 'unknown',
        confidence: 0,
        symbols: [],
        evidence: 'E   ZeroDivisionError: division by zero',
        strategy: 'increase_tests_shown',
        novel: true,
      },
    ]);
  });

  it('returns nothing when the counts show no failure', () => {
    expect(
      classifyTestOutput({
        output: "E   NameError: name 'x' is not defined",
        counts: { passed: 3, failed: 0, errors: 0 },
      }),
    ).toEqual([]);
  });

  it('produces patterns that satisfy the schema', () => {
    for (const p of classifyTestOutput({ output: "E   NameError: name 'x' is not defined\nE   assert 1 == 2" })) {
      expect(failurePatternSchema.safeParse(p).success).toBe(true);
    }
  });
});

describe('topPattern and strategies', () => {
  it('picks the most confident pattern, the first on ties, and undefined for none', () => {
    const patterns = classifyLines(
      "E   NameError: name 'x' is not defined\nE   AttributeError: module 'm' has no attribute 'a'\nE   TypeError: f() takes 1 positional argument but 2 were given",
    );
    expect(topPattern(patterns)!.type).toBe('missing_impl');
    expect(topPattern([])).toBeUndefined();
  });

  it('maps every pattern to its strategy', () => {
    expect(strategyByPattern).toEqual({
      cross_dep: 'expand_dependency_context',
      missing_impl: 'include_source_excerpt',
      wrong_constant: 'prioritize_constants',
      api_mismatch: 'fix_signatures',
      test_infra: 'increase_tests_shown',
      complex_behavior: 'increase_tests_shown',
      syntax_error: 'show_error_location',
      unknown: 'increase_tests_shown',
    });
  });
});
