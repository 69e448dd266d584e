// Classifies the output of REAL pytest runs on one tiny repository per pattern.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyTestOutput, topPattern } from '../../../../../domain/learning/patterns/index.js';
import type { FailurePattern } from '../../../../../domain/learning/patterns/index.js';

const calc = 'def add(a, b):\n    return a + b\n\n\nclass Foo:\n    pass\n\n\nGREETING = "hello"\n';

/** One repository per pattern: file path -> content. */
const repos: Record<string, Record<string, string>> = {
  importName: {
    'calc.py': calc,
    'test_calc.py': 'from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n',
  },
  moduleMissing: {
    'test_stats.py': 'import statsmissing\n\n\ndef test_mean():\n    assert statsmissing.mean([1]) == 1\n',
  },
  nameError: { 'test_name.py': 'def test_total():\n    assert total([1, 2]) == 3\n' },
  attributes: {
    'calc.py': calc,
    'test_attrs.py':
      'import calc\n\n\ndef test_module():\n    assert calc.mul(2, 3) == 6\n\n\ndef test_type():\n    assert calc.Foo.bar == 1\n\n\ndef test_object():\n    assert calc.Foo().baz == 1\n',
  },
  constants: {
    'calc.py': calc,
    'test_constants.py':
      'import calc\n\n\ndef test_greeting():\n    assert calc.GREETING == "hi"\n\n\ndef test_sum():\n    assert calc.add(1, 1) == 3\n\n\ndef test_not_equal():\n    assert calc.add(2, 2) != 4\n',
  },
  signatures: {
    'calc.py': calc,
    'test_sig.py':
      'import calc\n\n\ndef test_three():\n    assert calc.add(1, 2, 3) == 6\n\n\ndef test_keyword():\n    assert calc.add(1, 2, c=3) == 6\n\n\ndef test_missing():\n    assert calc.add(1) == 1\n',
  },
  testInfra: {
    'tests/__init__.py': '',
    'tests/helpers.py': 'def build():\n    return 1\n',
    'tests/test_missing_module.py': 'from tests.fixtures import make\n\n\ndef test_make():\n    assert make() == 1\n',
    'tests/test_missing_name.py': 'from tests.helpers import make\n\n\ndef test_make():\n    assert make() == 1\n',
  },
  syntaxError: {
    'calc.py': 'def add(a, b)\n    return a + b\n',
    ...Object.fromEntries(
      Array.from({ length: 7 }, (_, i) => [
        `test_${i}.py`,
        `import calc\n\n\ndef test_${i}():\n    assert calc.add(${i}, 1) == ${i + 1}\n`,
      ]),
    ),
  },
  indentationError: {
    'calc.py': 'def add(a, b):\n    total = a + b\n      return total\n',
    'test_a.py': 'import calc\n\n\ndef test_a():\n    assert calc.add(1, 1) == 2\n',
    'test_b.py': 'from calc import add\n\n\ndef test_b():\n    assert add(2, 2) == 4\n',
  },
  passing: { 'calc.py': calc, 'test_ok.py': 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n' },
  passingImportErrorName: {
    'test_errors.py': 'def test_import_error():\n    assert "ImportError" in "ImportError: cannot import name"\n',
  },
  quotedImportText: {
    'calc.py': calc,
    'test_text.py':
      "import calc\n\n\ndef test_text():\n    assert calc.GREETING == \"ImportError: cannot import name 'x' from 'y'\"\n",
  },
};

/** Extra pytest arguments per repo: `-rA` lists passed tests by name, so test_import_error shows up in the output. */
const extraArgs: Record<string, string[]> = { passingImportErrorName: ['-rA'] };

interface Run {
  output: string;
  counts: { passed: number; failed: number; errors: number };
}

let root: string;
const runs: Record<string, Run> = {};

/** Reads pytest's final summary line, e.g. `2 failed, 1 passed in 0.05s`. */
function readCounts(output: string): Run['counts'] {
  const find = (word: string): number => Number(new RegExp(`(\\d+) ${word}`).exec(output)?.[1] ?? 0);
  return { passed: find('passed'), failed: find('failed'), errors: find('errors?') };
}

/** Writes a repository and runs pytest in it once. */
async function runPytest(python: string, name: string, files: Record<string, string>): Promise<Run> {
  const dir = path.join(root, name);
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  const result = await execa(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...(extraArgs[name] ?? [])], {
    cwd: dir,
    reject: false,
    env: { PYTHONDONTWRITEBYTECODE: '1', PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1', NO_COLOR: '1' },
  });
  const output = `${result.stdout}\n${result.stderr}`;
  return { output, counts: readCounts(output) };
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
  // Resolve the interpreter once: a version-manager shim costs about a second per call.
  const { stdout: python } = await execa('python3', ['-c', 'import sys; print(sys.executable)']);
  const queue = Object.entries(repos);
  // Two at a time: the machine has two cores.
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift())
      runs[next[0]] = await runPytest(python, next[0], next[1]);
  };
  await Promise.all([worker(), worker()]);
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const classify = (name: string): FailurePattern[] => classifyTestOutput(runs[name]!);
const find = (patterns: FailurePattern[], symbol: string): FailurePattern | undefined =>
  patterns.find((p) => p.symbols[0] === symbol);

describe('classifyTestOutput on real pytest output', () => {
  it('reads a name that cannot be imported from a module as cross_dep at 0.95', () => {
    const patterns = classify('importName');
    expect(patterns[0]).toMatchObject({
      type: 'cross_dep',
      confidence: 0.95,
      symbols: ['calc.mul', 'calc'],
      strategy: 'expand_dependency_context',
    });
    expect(patterns[0]!.evidence).toContain("cannot import name 'mul' from 'calc'");
    expect(patterns[0]!.evidence.length).toBeLessThanOrEqual(200);
  });

  it('reads a missing module as cross_dep at 0.8', () => {
    expect(topPattern(classify('moduleMissing'))).toMatchObject({
      type: 'cross_dep',
      confidence: 0.8,
      symbols: ['statsmissing'],
    });
  });

  it('reads a missing module outside the repository as test_infra (an environment cause), one inside it as cross_dep', () => {
    const run = runs.moduleMissing!;
    expect(topPattern(classifyTestOutput({ ...run, ownModules: ['calc', 'test_stats'] }))).toMatchObject({
      type: 'test_infra',
      confidence: 0.8,
      symbols: ['statsmissing'],
    });
    expect(topPattern(classifyTestOutput({ ...run, ownModules: ['statsmissing'] }))).toMatchObject({
      type: 'cross_dep',
      confidence: 0.8,
    });
  });

  it('reads one SyntaxError that breaks 7 test modules as one syntax_error pattern at its location, never complex_behavior', () => {
    expect(runs.syntaxError!.counts).toMatchObject({ passed: 0, errors: 7 });
    const patterns = classify('syntaxError');
    expect(patterns).toHaveLength(1);
    expect(patterns[0]).toMatchObject({ type: 'syntax_error', confidence: 0.95, strategy: 'show_error_location' });
    expect(patterns[0]!.symbols[0]).toMatch(/calc\.py:1$/);
    expect(patterns[0]!.evidence).toMatch(/^E\s+SyntaxError: expected ':' \(.*calc\.py:1\)$/);
  });

  it('reads an IndentationError as syntax_error too', () => {
    const patterns = classify('indentationError');
    expect(patterns.map((p) => [p.type, p.symbols[0]?.replace(/^.*\//, '')])).toEqual([['syntax_error', 'calc.py:3']]);
  });

  it('reads an undefined name as cross_dep at 0.6', () => {
    expect(topPattern(classify('nameError'))).toMatchObject({ type: 'cross_dep', confidence: 0.6, symbols: ['total'] });
  });

  it('reads missing attributes of a module, a type and an object as missing_impl at 0.9', () => {
    const patterns = classify('attributes');
    expect(patterns.map((p) => [p.type, p.confidence, p.symbols[0]])).toEqual([
      ['missing_impl', 0.9, 'calc.mul'],
      ['missing_impl', 0.9, 'Foo.bar'],
      ['missing_impl', 0.9, 'Foo.baz'],
    ]);
    expect(patterns[0]!.strategy).toBe('include_source_excerpt');
  });

  it('reads literal comparisons as wrong_constant: == at 0.85 and != at 0.7', () => {
    const patterns = classify('constants');
    expect(find(patterns, "'hello'")).toMatchObject({
      type: 'wrong_constant',
      confidence: 0.85,
      symbols: ["'hello'", "'hi'"],
    });
    expect(patterns.find((p) => p.symbols.join() === '2,3')).toMatchObject({
      type: 'wrong_constant',
      confidence: 0.85,
    });
    expect(patterns.find((p) => p.symbols.join() === '4,4')).toMatchObject({ type: 'wrong_constant', confidence: 0.7 });
    expect(patterns.every((p) => p.strategy === 'prioritize_constants')).toBe(true);
  });

  it('reads wrong argument counts and keywords as api_mismatch at 0.9, one per function', () => {
    const patterns = classify('signatures');
    // All three failures are about add(); deduplication by (type, first symbol) keeps one.
    expect(patterns).toHaveLength(1);
    expect(patterns[0]).toMatchObject({
      type: 'api_mismatch',
      confidence: 0.9,
      symbols: ['add'],
      strategy: 'fix_signatures',
    });
    expect(patterns[0]!.evidence).toContain('takes 2 positional arguments but 3 were given');
  });

  it('reads missing tests modules and names as test_infra, never as cross_dep', () => {
    const patterns = classify('testInfra');
    expect(patterns.map((p) => [p.type, p.confidence, p.symbols[0]])).toEqual([
      ['test_infra', 0.95, 'tests.fixtures'],
      ['test_infra', 0.9, 'tests.helpers.make'],
    ]);
    expect(patterns[0]!.strategy).toBe('increase_tests_shown');
  });

  it('finds nothing in a passing run', () => {
    expect(runs.passing!.counts).toEqual({ passed: 1, failed: 0, errors: 0 });
    expect(classify('passing')).toEqual([]);
    // Without counts the classifier cannot tell a pass from an unrecognised failure: it says unknown.
    expect(classifyTestOutput({ output: runs.passing!.output })).toMatchObject([
      { type: 'unknown', confidence: 0, novel: true },
    ]);
  });

  it('does not mistake a passing test named test_import_error for an import failure', () => {
    expect(runs.passingImportErrorName!.output).toContain('PASSED test_errors.py::test_import_error');
    expect(classify('passingImportErrorName')).toEqual([]);
    expect(classifyTestOutput({ output: runs.passingImportErrorName!.output })[0]!.type).toBe('unknown');
  });

  it('treats "cannot import name" inside a compared string as a wrong constant, not as cross_dep', () => {
    const patterns = classify('quotedImportText');
    expect(runs.quotedImportText!.output).toContain("cannot import name 'x' from 'y'");
    expect(patterns.map((p) => p.type)).toEqual(['wrong_constant']);
    expect(patterns[0]!.symbols[0]).toBe("'hello'");
  });
});
