// Turns schema issues into lines a person can act on: the field, the value received, what was expected, the fix.
import { modelOptionsHelp, optionRoles } from './model-options.js';
import { exampleModelSpec, quotedModelForms } from './providers.js';
import { redactUrls } from './repo-url.js';
import { retryCap } from './retry-decision.js';
import { MAX_SAMPLES } from './samples.js';
import { describeLimitRange, limitNames, limitRanges } from './sandbox-limits.js';

/** One problem with a task spec. */
export interface SpecIssue {
  /** Dotted path, e.g. `models.coder` or `testCommand.1`; `(task spec)` for the whole input. */
  field: string;
  value: unknown;
  /** `expected …, got … (fix)`. */
  message: string;
}

/** The part of a zod issue this module (and the eval suite's, domain/eval/suite-errors.ts) reads. */
export interface RawIssue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  keys?: readonly string[];
  /** An `invalid_union`'s issues per branch, paths relative to the union's. */
  errors?: readonly (readonly RawIssue[])[];
}

interface FieldHelp {
  expected: string;
  fix: string;
}

const nameHelp = 'a name of 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit';
const modelHelp = (role: string): FieldHelp => ({
  expected: `a model spec matching ${quotedModelForms}`,
  fix: `set models.${role} to e.g. "${exampleModelSpec}"`,
});
// The coder, reviewer and judge may be written with settings (domain/model-options.ts).
const modelChoiceHelp = (role: string): FieldHelp => ({
  expected: `a model spec matching ${quotedModelForms}, or {"model": <spec>, "contextWindow": <tokens>, "serverWaitMs": <ms>}`,
  fix: `set models.${role} to e.g. "${exampleModelSpec}" or {"model": "${exampleModelSpec}", "contextWindow": 8192}`,
});
const modelSettingsHelp: Record<string, FieldHelp> = Object.fromEntries(
  optionRoles.flatMap((role) => [
    [`models.${role}`, modelChoiceHelp(role)],
    [`models.${role}.model`, { ...modelHelp(role), fix: `set models.${role}.model to e.g. "${exampleModelSpec}"` }],
    ...Object.entries(modelOptionsHelp(role)),
  ]),
);

// Keys are field paths with array indexes and record keys written as `*`.
const help: Record<string, FieldHelp> = {
  '': { expected: 'an object with at least id, repo, goal and models.coder', fix: 'pass a mapping of task fields' },
  id: { expected: nameHelp, fix: 'set id to e.g. "fix-cache-key"' },
  project: { expected: nameHelp, fix: 'set project to e.g. "default", or leave it out' },
  repo: { expected: 'a non-empty path to a git repository', fix: 'set repo to e.g. "./my-repo"' },
  baseRef: { expected: 'a non-empty git ref', fix: 'set baseRef to e.g. "main", or leave it out for HEAD' },
  goal: {
    expected: 'a goal of 1 to 20000 characters, not blank',
    fix: 'set goal to e.g. "fix #218: cache_key is ignored"',
  },
  testCommand: {
    expected: 'a non-empty argv array of strings',
    fix: 'set testCommand to e.g. ["python3", "-m", "pytest"]',
  },
  'testCommand.*': { expected: 'a non-empty string', fix: 'remove empty or non-string arguments from testCommand' },
  testEnv: { expected: 'an object of string values', fix: 'set testEnv to e.g. {"PYTHONHASHSEED": "0"}' },
  'testEnv.*': { expected: 'a string value', fix: 'quote the value, e.g. "1"' },
  testTimeoutMs: {
    expected: 'a whole number of milliseconds from 1000 to 7200000',
    fix: 'set testTimeoutMs to e.g. 600000',
  },
  acceptanceTests: {
    expected: 'an array of pytest node ids',
    fix: 'set acceptanceTests to e.g. ["tests/test_x.py::test_y"]',
  },
  'acceptanceTests.*': {
    expected: 'a pytest node id: a test file path inside the repository, then ::Class and ::test_name as needed',
    fix: 'write it like "tests/test_x.py::test_y" or "tests/test_x.py::TestX::test_y[1-2]"',
  },
  allowedPaths: {
    expected: 'an array of paths or globs',
    fix: 'set allowedPaths to e.g. ["src/", "lib/**/*.py"], or leave it out',
  },
  'allowedPaths.*': { expected: 'a non-empty path or glob', fix: 'write it like "src/" or "src/**/*.py"' },
  allowTestEdits: { expected: 'true or false', fix: 'set allowTestEdits to true or false' },
  maxRetries: {
    expected: `a whole number from 0 to ${retryCap} (the loop's retry cap: at most ${retryCap + 1} coder attempts)`,
    fix: `set maxRetries to at most ${retryCap}`,
  },
  models: {
    expected: 'an object with at least a coder model',
    fix: `set models to e.g. {"coder": "${exampleModelSpec}"}`,
  },
  ...modelSettingsHelp,
  'models.skillWriter': modelHelp('skillWriter'),
  samples: {
    expected: `a whole number from 1 to ${MAX_SAMPLES} (candidate coder runs an attempt, the first whose tests pass kept)`,
    fix: `set samples to e.g. 3, or leave it out for one run an attempt`,
  },
  maxCoderSteps: { expected: 'a whole number from 1 to 200', fix: 'set maxCoderSteps to e.g. 30' },
  retryWindowMs: { expected: 'a whole number of milliseconds, 0 or more', fix: 'set retryWindowMs to e.g. 0' },
  secretEnvNames: {
    expected: 'an array of environment variable names',
    fix: 'set secretEnvNames to e.g. ["OPENAI_API_KEY"]',
  },
  'secretEnvNames.*': {
    expected: 'an environment variable name (letters, digits and "_", not starting with a digit)',
    fix: 'write it like "OPENAI_API_KEY"',
  },
  envRetryLimit: { expected: 'a whole number from 0 to 10', fix: 'set envRetryLimit to e.g. 3' },
  hostLostAfterMs: {
    expected: 'a whole number of milliseconds from 5000 to 3600000',
    fix: 'set hostLostAfterMs to e.g. 45000',
  },
  heartbeatTimeoutMs: {
    expected: 'a whole number of milliseconds from 10000 to 600000',
    fix: 'set heartbeatTimeoutMs to e.g. 20000',
  },
  environment: {
    expected: '"auto" or an object { setup, python, files, timeoutMs }',
    fix: 'set environment to "auto", or e.g. {"setup": ["uv pip install -r requirements.txt"]}',
  },
  'environment.setup': {
    expected: 'a non-empty array of shell lines',
    fix: 'set environment.setup to e.g. ["uv pip install -r requirements.txt"], or leave it out for auto',
  },
  'environment.setup.*': {
    expected: 'a shell line (a non-empty string)',
    fix: 'remove empty or non-string lines from environment.setup',
  },
  'environment.python': {
    expected: 'a python on the worker’s PATH (python3, python3.12) or the absolute path of one of its interpreters',
    fix: 'set environment.python to e.g. "python3.12", or leave it out for the worker’s python3',
  },
  'environment.files': {
    expected: 'a non-empty array of paths inside the repository',
    fix: 'set environment.files to e.g. ["requirements.txt"], or leave it out for the dependency files found',
  },
  'environment.files.*': {
    expected: 'a path inside the repository (relative, no ".." part)',
    fix: 'write it like "requirements/dev.txt"',
  },
  'environment.timeoutMs': {
    expected: 'a whole number of milliseconds from 10000 to 7200000',
    fix: 'set environment.timeoutMs to e.g. 1200000',
  },
  limits: {
    expected: `an object of resource limits (${limitNames.join(', ')})`,
    fix: 'set limits to e.g. {"memoryMb": 4096}',
  },
  ...Object.fromEntries(
    limitNames.map((name) => [
      `limits.${name}`,
      {
        expected: describeLimitRange(name),
        fix: `set limits.${name} to e.g. ${limitRanges[name].example}, or leave it out for the worker's default`,
      },
    ]),
  ),
};

const maxValueChars = 80;

/** Renders a received value as JSON, cut to 80 characters; `nothing` when the field is absent. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value); // e.g. BigInt or a cycle: still say something
  }
  return text.length <= maxValueChars ? text : `${text.slice(0, maxValueChars - 1)}…`;
}

/** Maps zod issues to one `SpecIssue` per field and problem; `knownFields` lists the keys of each strict object. */
export function formatSpecIssues(
  raw: readonly RawIssue[],
  input: unknown,
  knownFields: Record<string, string[]>,
): SpecIssue[] {
  const issues: SpecIssue[] = [];
  const seen = new Set<string>();
  const push = (issue: SpecIssue) => {
    const key = `${issue.field}\n${issue.message}`;
    if (seen.has(key)) return; // zod reports several checks of one field (length and pattern): say it once
    seen.add(key);
    issues.push(issue);
  };
  for (const issue of expandUnions(raw)) {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      const parent = path.join('.');
      const known = (knownFields[parent] ?? []).join(', ');
      for (const key of issue.keys ?? []) {
        const value = valueAt(input, [...path, key]);
        const field = [...path, key].join('.');
        const message = `unknown field, got ${describeValue(value)} (remove ${field} or fix its spelling; known fields: ${known})`;
        push({ field, value, message });
      }
      continue;
    }
    const value = valueAt(input, path);
    // A URL's user information is a credential: never echoed, in a refusal of it least of all.
    const shown = typeof value === 'string' ? redactUrls(value) : value;
    const hidden = shown !== value ? ' (credentials not shown)' : '';
    const found = lookupHelp(path);
    // The repository URL check carries its own reason and fix; the field's generic help ("a path") would hide it.
    const message =
      issue.code === 'custom' && path[0] === 'repo'
        ? `${issue.message}; got ${describeValue(shown)}${hidden}`
        : found
          ? `expected ${found.expected}, got ${describeValue(shown)}${hidden} (${found.fix})`
          : `${issue.message}, got ${describeValue(shown)}${hidden}`;
    push({ field: path.length === 0 ? '(task spec)' : path.join('.'), value, message });
  }
  return issues;
}

/**
 * A union none of whose branches matched (`models.coder` as a string or an object): when the value has the shape of
 * exactly one branch, that branch's own issues (`models.coder.contextWindow: …`) say more than "no branch matched".
 */
function expandUnions(raw: readonly RawIssue[]): RawIssue[] {
  return raw.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || !issue.errors) return [issue];
    // A branch that refused the value's type, or the value itself (a literal such as "auto"), is of another shape.
    const ofItsShape = issue.errors.filter(
      (branch) =>
        !branch.some(
          (inner) => (inner.code === 'invalid_type' || inner.code === 'invalid_value') && inner.path.length === 0,
        ),
    );
    const [only] = ofItsShape;
    if (ofItsShape.length !== 1 || !only) return [issue];
    return expandUnions(only.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })));
  });
}

function lookupHelp(path: string[]): FieldHelp | undefined {
  const exact = help[path.join('.')];
  if (exact) return exact;
  if (path.length >= 3) {
    const nested = help[`${path[0]}.${path[1]}.*`];
    if (nested) return nested;
  }
  if (path.length >= 2) {
    const starred = help[`${path[0]}.*`];
    if (starred) return starred;
  }
  return help[path[0] ?? ''];
}

function valueAt(input: unknown, path: string[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
