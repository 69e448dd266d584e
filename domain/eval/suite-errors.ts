// Turns suite schema issues and cross-field problems into lines naming the field, the value received and the fix.
import { describeValue, type RawIssue } from '../task-spec-errors.js';
import { suiteDefaultsSchema, suiteHintsSchema, suiteInstanceSchema, suiteSchema, type Suite } from './suite.js';

export interface SuiteIssue {
  /** e.g. `instances[2].failToPass[0]`. */
  field: string;
  message: string;
}

const nodeIdHelp = { expected: 'a pytest node id like "tests/test_x.py::test_y"', fix: 'write the file path, then ::' };
const help: Record<string, { expected: string; fix: string }> = {
  '': { expected: 'a mapping with name and instances', fix: 'start the file with name: and instances:' },
  name: { expected: 'a name of 1 to 40 letters, digits, ".", "_" or "-"', fix: 'set name to e.g. "starter"' },
  instances: { expected: 'a list of at least one instance', fix: 'add instances with id, repo, goal and tests' },
  'instances.*.id': { expected: 'a name of 1 to 40 letters, digits, ".", "_" or "-"', fix: 'set id to e.g. "fix-add"' },
  'instances.*.repo': { expected: 'a local path or a git URL', fix: 'set repo to e.g. "./repo" or a https URL' },
  'instances.*.baseRef': { expected: 'a git ref', fix: 'set baseRef to a commit, or give fixCommit instead' },
  'instances.*.fixCommit': {
    expected: 'a commit id of 7 to 40 hex digits',
    fix: 'copy the fix commit id from git log',
  },
  'instances.*.goal': { expected: 'a goal of 1 to 20000 characters', fix: 'describe the bug as an issue would' },
  'instances.*.failToPass': { expected: 'a list of pytest node ids', fix: 'list the tests the fix makes pass' },
  'instances.*.failToPass.*': nodeIdHelp,
  'instances.*.passToPass': { expected: 'a list of pytest node ids', fix: 'list tests that must keep passing' },
  'instances.*.passToPass.*': nodeIdHelp,
  'instances.*.testCommand': { expected: 'an argv list', fix: 'set testCommand to e.g. ["python3", "-m", "pytest"]' },
  'instances.*.tags': { expected: 'a list of labels', fix: 'set tags to e.g. [one-line]' },
  'instances.*.tags.*': {
    expected: 'a label of letters, digits, ".", "_" or "-" (up to 40)',
    fix: 'write the tag as e.g. one-line',
  },
  'instances.*.hints.maxSteps': { expected: 'a whole number from 1 to 200', fix: 'set maxSteps to e.g. 30' },
  'defaults.maxRetries': { expected: 'a whole number from 0 to 2', fix: 'set maxRetries to 0, 1 or 2' },
  'defaults.testTimeoutMs': { expected: 'milliseconds from 1000 to 7200000', fix: 'set testTimeoutMs to e.g. 600000' },
};

const knownFields: Record<string, string[]> = {
  '': Object.keys(suiteSchema.shape),
  'instances.*': Object.keys(suiteInstanceSchema.shape),
  'instances.*.hints': Object.keys(suiteHintsSchema.shape),
  defaults: Object.keys(suiteDefaultsSchema.shape),
};

/** `instances[2].failToPass[0]`: array indexes in brackets, as a person finds them in the file. */
export function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`))
    .join('');
}

const patternOf = (path: readonly PropertyKey[]) =>
  path.map((part) => (typeof part === 'number' ? '*' : String(part))).join('.');

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

/** One issue per zod problem, in the file's own words. */
export function formatSuiteIssues(raw: readonly RawIssue[], input: unknown): SuiteIssue[] {
  const issues: SuiteIssue[] = [];
  for (const issue of raw) {
    if (issue.code === 'unrecognized_keys') {
      const known = (knownFields[patternOf(issue.path)] ?? []).join(', ');
      for (const key of issue.keys ?? []) {
        const field = fieldName([...issue.path, key]);
        const value = describeValue(valueAt(input, [...issue.path, key]));
        issues.push({ field, message: `unknown field, got ${value} (remove it or fix its spelling; known: ${known})` });
      }
      continue;
    }
    const found = help[patternOf(issue.path)];
    const value = describeValue(valueAt(input, issue.path));
    const field = fieldName(issue.path) || '(suite)';
    issues.push({
      field,
      message: found ? `expected ${found.expected}, got ${value} (${found.fix})` : `${issue.message}, got ${value}`,
    });
  }
  return dedupe(issues);
}

/** Problems the schema cannot see: a base ref and a fix commit together, tests missing, ids repeated. */
export function crossFieldIssues(suite: Suite): SuiteIssue[] {
  const issues: SuiteIssue[] = [];
  const seen = new Map<string, number>();
  suite.instances.forEach((instance, index) => {
    const at = (field: string) => `instances[${index}].${field}`;
    const first = seen.get(instance.id);
    if (first !== undefined)
      issues.push({
        field: at('id'),
        message: `duplicate id "${instance.id}" (also instances[${first}]); give each its own`,
      });
    else seen.set(instance.id, index);
    if (instance.fixCommit !== undefined && instance.baseRef !== undefined)
      issues.push({
        field: at('baseRef'),
        message: `got ${describeValue(instance.baseRef)} beside fixCommit (the base is the fix's parent): remove baseRef`,
      });
    if (instance.fixCommit === undefined) {
      if (instance.baseRef === undefined)
        issues.push({ field: at('baseRef'), message: 'missing (fix: set baseRef to a commit, or give fixCommit)' });
      if (!instance.failToPass?.length)
        issues.push({
          field: at('failToPass'),
          message: `got ${describeValue(instance.failToPass)} (fix: list at least one test the fix makes pass, or give fixCommit)`,
        });
      if (instance.passToPass === undefined)
        issues.push({
          field: at('passToPass'),
          message: 'missing (fix: list the tests that must keep passing, or write passToPass: [] when there are none)',
        });
    }
  });
  return issues;
}

function dedupe(issues: SuiteIssue[]): SuiteIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.field}\n${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
