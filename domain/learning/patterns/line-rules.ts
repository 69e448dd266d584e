// Level 1: patterns recognised in single lines of raw pytest (or Python traceback) output.
import type { PatternType } from './types.js';

/** What earlier lines of the same section tell about the current one. */
export interface LineContext {
  /** The last `File "…", line N` seen: where a SyntaxError points. */
  location?: { file: string; line: number };
  /** A line shortly before mentioned os.environ / getenv, so a KeyError there is a missing variable. */
  environNearby: boolean;
  /** The repository's top-level module names; undefined when unknown. */
  ownModules?: readonly string[];
}

interface LineRule {
  type: PatternType;
  confidence: number;
  /** Anchored at the start of the normalised line (markers and prefixes removed). */
  regex: RegExp;
  symbols: (match: RegExpMatchArray, context: LineContext) => string[];
  /** When present and false, the rule does not apply and the next one is tried. */
  applies?: (match: RegExpMatchArray, context: LineContext) => boolean;
}

/** True when the module's top-level package is known not to be part of the repository. */
export function isThirdPartyModule(module: string, ownModules: readonly string[] | undefined): boolean {
  if (ownModules === undefined) return false;
  return !ownModules.includes(module.split('.')[0] ?? module);
}

const quoted = `'([^']+)'`;
const testModule = `(tests(?:\\.[\\w.]+)?|(?:[\\w.]+\\.)?conftest)`;
// A literal as pytest prints it: a (byte) string, a number, or True/False/None.
const literal = `((?:b|rb|r)?'(?:[^'\\\\]|\\\\.)*'|(?:b|rb|r)?"(?:[^"\\\\]|\\\\.)*"|-?\\d+(?:\\.\\d+)?(?:e[-+]?\\d+)?|True|False|None)`;
const callable = `([\\w.<>]+)\\(\\)`;

const qualify = (owner: string, name: string): string[] => [`${owner}.${name}`, owner];

/** Ordered: the first rule that matches a line wins, so test_infra beats cross_dep on the same line. */
export const lineRules: LineRule[] = [
  {
    // One syntax error breaks every module importing the file: the location is the symbol, so it counts once.
    type: 'syntax_error',
    confidence: 0.95,
    regex: /^(SyntaxError|IndentationError|TabError): /,
    symbols: (_m, context) =>
      context.location === undefined
        ? []
        : [`${context.location.file}:${context.location.line}`, context.location.file],
  },
  {
    // Environment causes (a service down, a variable unset, a package not installed) are test infrastructure.
    type: 'test_infra',
    confidence: 0.85,
    regex: /^(?:ConnectionRefusedError\b|[\w.]+: .*\bConnection refused\b)/,
    symbols: () => [],
  },
  {
    type: 'test_infra',
    confidence: 0.85,
    regex: /^KeyError: '([A-Za-z_]\w*)'\s*$/,
    symbols: (m) => [m[1]!],
    applies: (_m, context) => context.environNearby,
  },
  {
    type: 'test_infra',
    confidence: 0.85,
    regex:
      /^[\w.]+: .*?(?:\b[Ee]nvironment variable|\benv var)s?:?\s+[`'"]?([A-Z_][A-Z0-9_]+)|^[\w.]+: .*?[`'"]?\b([A-Z][A-Z0-9_]+)[`'"]? (?:environment variable|env var)\b/,
    symbols: (m) => [(m[1] ?? m[2])!],
  },
  {
    type: 'test_infra',
    confidence: 0.95,
    regex: new RegExp(`^ModuleNotFoundError: No module named '${testModule}'`),
    symbols: (m) => [m[1]!],
  },
  {
    type: 'test_infra',
    confidence: 0.9,
    regex: new RegExp(
      `^ImportError: cannot import name ${quoted} from (?:partially initialized module )?'${testModule}'`,
    ),
    symbols: (m) => qualify(m[2]!, m[1]!),
  },
  {
    type: 'test_infra',
    confidence: 0.9,
    regex: /^ImportError while loading conftest '([^']+)'/,
    symbols: (m) => [m[1]!],
  },
  {
    // A missing fixture is test scaffolding (usually a conftest) the tests expect.
    type: 'test_infra',
    confidence: 0.9,
    regex: new RegExp(`^fixture ${quoted} not found`),
    symbols: (m) => [m[1]!],
  },
  {
    type: 'cross_dep',
    confidence: 0.95,
    regex: new RegExp(
      `^ImportError: cannot import name ${quoted}(?: from (?:partially initialized module )?${quoted})?`,
    ),
    symbols: (m) => (m[2] === undefined ? [m[1]!] : qualify(m[2], m[1]!)),
  },
  {
    type: 'test_infra',
    confidence: 0.8,
    regex: new RegExp(`^ModuleNotFoundError: No module named ${quoted}`),
    symbols: (m) => [m[1]!],
    applies: (m, context) => isThirdPartyModule(m[1]!, context.ownModules),
  },
  {
    type: 'cross_dep',
    confidence: 0.8,
    regex: new RegExp(`^ModuleNotFoundError: No module named ${quoted}`),
    symbols: (m) => [m[1]!],
  },
  {
    type: 'cross_dep',
    confidence: 0.6,
    regex: new RegExp(`^NameError: name ${quoted} is not defined`),
    symbols: (m) => [m[1]!],
  },
  {
    // A circular import surfaces as an AttributeError, but its cure is the dependency context.
    type: 'cross_dep',
    confidence: 0.9,
    regex: new RegExp(`^AttributeError: partially initialized module ${quoted} has no attribute ${quoted}`),
    symbols: (m) => qualify(m[1]!, m[2]!),
  },
  {
    type: 'missing_impl',
    confidence: 0.9,
    regex: new RegExp(`^AttributeError: (?:module|type object) ${quoted} has no attribute ${quoted}`),
    symbols: (m) => qualify(m[1]!, m[2]!),
  },
  {
    type: 'missing_impl',
    confidence: 0.9,
    regex: new RegExp(`^AttributeError: ${quoted} object has no attribute ${quoted}`),
    symbols: (m) => qualify(m[1]!, m[2]!),
  },
  {
    type: 'api_mismatch',
    confidence: 0.9,
    regex: new RegExp(
      `^TypeError: ${callable} takes (?:\\d+|from \\d+ to \\d+) positional arguments? but|^TypeError: ${callable} takes no arguments`,
    ),
    symbols: (m) => [(m[1] ?? m[2])!],
  },
  {
    type: 'api_mismatch',
    confidence: 0.9,
    regex: new RegExp(
      `^TypeError: ${callable} (?:got an unexpected keyword argument|got multiple values for argument) ${quoted}`,
    ),
    symbols: (m) => [m[1]!, m[2]!],
  },
  {
    type: 'api_mismatch',
    confidence: 0.9,
    regex: new RegExp(`^TypeError: ${callable} missing \\d+ required (?:positional|keyword-only) arguments?: (.*)$`),
    symbols: (m) => [m[1]!, ...[...m[2]!.matchAll(/'([^']+)'/g)].map((a) => a[1]!)],
  },
  {
    type: 'wrong_constant',
    confidence: 0.85,
    regex: new RegExp(`^(?:AssertionError: )?assert ${literal} == ${literal}\\s*$`),
    symbols: (m) => [m[1]!, m[2]!],
  },
  {
    // pytest's `assert 2 != 2` and unittest's `AssertionError: 'a' != 'b'` (optionally `Lists differ: ...`).
    type: 'wrong_constant',
    confidence: 0.7,
    regex: /^(?:AssertionError: (?:\w+ differ: )?|assert )(\S.*?) != (\S.*?)\s*$/,
    symbols: (m) => [m[1]!, m[2]!],
  },
];

const ansiEscape = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g');

/**
 * Reduces an output line to the error text it carries, or undefined when it carries none.
 * Only pytest's `E` lines and lines starting at column 0 count: indented lines are source
 * shown in tracebacks, where `assert x != y` is code, not a failure.
 */
export function normalizeLine(raw: string): string | undefined {
  const line = raw.replace(ansiEscape, '').trimEnd();
  if (line === '' || /^\s/.test(line)) return undefined;
  return line
    .replace(/^E\s+/, '')
    .replace(/^(?:FAILED|ERROR) \S+ - /, '')
    .replace(/^\S+\.py:\d+: /, '');
}
