// SWE-bench-style instances (one JSON object a line: instance_id, repo, base_commit, patch, test_patch,
// problem_statement, FAIL_TO_PASS, PASS_TO_PASS) read into what an eval suite needs, and the predictions the official
// harness reads (instance_id, model_name_or_path, model_patch). Every problem names the line, the field, the value
// and the fix. Pure: text in, rows or issues out.
import { z } from 'zod';
import { describeValue } from '../task-spec-errors.js';
import { nodeIdInsideRepo, nodeIdPattern } from './suite.js';

const idPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
const repoPattern = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const shaPattern = /^[0-9a-f]{40}$/;
/** The longest goal a suite takes; a longer problem statement is cut, with a marker. */
export const MAX_GOAL_CHARS = 20_000;
/** The largest gold or test patch a line may hold (10 MB): a larger one is refused at input, said as its size. */
export const MAX_PATCH_CHARS = 10_000_000;

/** A test list: a JSON array, or (as in the official dataset) a string holding one. */
const testList = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  },
  z.array(z.string().regex(nodeIdPattern).refine(nodeIdInsideRepo)),
);

/**
 * An id git takes in a branch name (`taskloop/<id>`, git check-ref-format): the pattern allows ".." and a trailing
 * "." or ".lock", which git refuses; said here, not later as a failure to make the branch.
 */
const refSafe = (id: string) => !id.includes('..') && !id.endsWith('.') && !id.endsWith('.lock');

export const sweBenchRowSchema = z.looseObject({
  instance_id: z.string().regex(idPattern).refine(refSafe),
  repo: z.string().regex(repoPattern),
  base_commit: z.string().regex(shaPattern),
  patch: z.string().min(1).max(MAX_PATCH_CHARS),
  test_patch: z.string().min(1).max(MAX_PATCH_CHARS),
  problem_statement: z.string().min(1),
  FAIL_TO_PASS: testList.pipe(z.array(z.string()).min(1)),
  PASS_TO_PASS: testList,
  // taskloop's own, ignored by the harness: where to clone from, how the tests run (pytest by default), step limit.
  mirror: z.string().min(1).optional(),
  test_command: z.array(z.string().min(1)).min(1).optional(),
  test_env: z.record(z.string(), z.string()).optional(),
  max_steps: z.number().int().min(1).max(200).optional(),
});
export type SweBenchRow = z.infer<typeof sweBenchRowSchema>;

export interface SweBenchIssue {
  line: number;
  field: string;
  message: string;
}

const help: Record<string, { expected: string; fix: string }> = {
  instance_id: {
    expected:
      '1 to 40 letters, digits, ".", "_" or "-" that git takes in a branch name (no "..", not ending in "." or ".lock")',
    fix: 'use the dataset\'s id, e.g. "psf__requests-2317"',
  },
  repo: { expected: 'owner/name of a GitHub repository', fix: 'e.g. "psf/requests"' },
  base_commit: { expected: 'a full 40-digit commit id', fix: 'copy base_commit from the dataset' },
  patch: {
    expected: 'the gold patch, a unified diff of at most 10000000 characters',
    fix: 'copy patch from the dataset; a larger change is no instance to evaluate',
  },
  test_patch: {
    expected: 'the test patch, a unified diff of at most 10000000 characters',
    fix: 'copy test_patch from the dataset; a larger change is no instance to evaluate',
  },
  problem_statement: { expected: 'the issue text', fix: 'copy problem_statement from the dataset' },
  FAIL_TO_PASS: {
    expected:
      'a non-empty list of pytest node ids of files inside the repository (no ".." segment, no leading "/"; a JSON array, or a string holding one)',
    fix: 'e.g. ["tests/test_x.py::test_y"]; only pytest repositories are supported',
  },
  PASS_TO_PASS: {
    expected:
      'a list of pytest node ids of files inside the repository (no ".." segment, no leading "/"; a JSON array, or a string holding one)',
    fix: 'e.g. [] or ["tests/test_x.py::test_z"]; only pytest repositories are supported',
  },
  test_command: { expected: 'an argv list', fix: 'e.g. ["python3", "-m", "pytest"]' },
  test_env: { expected: 'a mapping of names to strings', fix: 'e.g. {"PYTHONPATH": "src"}' },
  mirror: { expected: 'a local path to clone from', fix: 'leave it out to clone from GitHub' },
  max_steps: { expected: 'a whole number from 1 to 200', fix: "the coder's step limit per attempt, e.g. 20" },
};

function valueAt(row: unknown, path: readonly PropertyKey[]): unknown {
  let value = row;
  for (const key of path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
  return value;
}

/** Parses the lines of a SWE-bench-style JSONL file; blank lines are skipped, duplicate ids refused. */
export function parseSweBenchJsonl(
  text: string,
): { success: true; rows: SweBenchRow[]; lines: number[] } | { success: false; issues: SweBenchIssue[] } {
  const rows: SweBenchRow[] = [];
  const lines: number[] = [];
  const issues: SweBenchIssue[] = [];
  const seen = new Map<string, number>();
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      issues.push({
        line,
        field: '(line)',
        message: `not JSON (${(error as Error).message}); fix: one JSON object a line, no line breaks inside it`,
      });
      return;
    }
    const parsed = sweBenchRowSchema.safeParse(json);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path.length > 0 ? String(issue.path[0]) : '(line)';
        const known = help[field];
        const got = describeValue(valueAt(json, issue.path.slice(0, 1)));
        issues.push({
          line,
          field: issue.path.map(String).join('.') || '(line)',
          message: known
            ? `expected ${known.expected}, got ${got}; fix: ${known.fix}`
            : `${issue.message}, got ${got}; fix: one JSON object with the SWE-bench fields`,
        });
      }
      return;
    }
    const first = seen.get(parsed.data.instance_id);
    if (first !== undefined) {
      issues.push({
        line,
        field: 'instance_id',
        message: `${JSON.stringify(parsed.data.instance_id)} is already on line ${first}; fix: one line per instance`,
      });
      return;
    }
    seen.set(parsed.data.instance_id, line);
    rows.push(parsed.data);
    lines.push(line);
  });
  if (issues.length === 0 && rows.length === 0)
    issues.push({ line: 1, field: '(file)', message: 'no instances; fix: one JSON object a line' });
  return issues.length > 0 ? { success: false, issues } : { success: true, rows, lines };
}

/** The goal the coder gets: the problem statement, cut (with a marker) past the suite's limit. */
export function goalOf(row: SweBenchRow): string {
  const text = row.problem_statement.trim();
  if (text.length <= MAX_GOAL_CHARS) return text;
  const marker = '\n[... problem statement cut to fit the goal limit]';
  return `${text.slice(0, MAX_GOAL_CHARS - marker.length)}${marker}`;
}

/** The files a unified diff changes, as `b/` paths (`/dev/null` for a deletion gives the `a/` path). */
export function filesOfDiff(diff: string): string[] {
  const files = new Set<string>();
  for (const match of diff.matchAll(/^diff --git a\/(\S+) b\/(\S+)$/gm)) files.add(match[2] ?? match[1] ?? '');
  return [...files].filter(Boolean);
}

/** One line of a predictions file, as the SWE-bench harness reads it. */
export interface Prediction {
  instance_id: string;
  model_name_or_path: string;
  /** A unified diff against base_commit (`git apply` applies it), empty when nothing was committed. */
  model_patch: string;
}

/**
 * The name the harness files an arm's results under: no slashes (it makes folders of them). `agent` is the version
 * that ran (client/eval/predictions.ts resolves the champion); `champion` stands only where none is known.
 */
export function predictionModelName(arm: {
  model: string;
  agent?: string;
  learning: boolean;
  samples?: number;
}): string {
  const model = arm.model.replace(/^scripted:.*\//, 'scripted:');
  const samples = arm.samples && arm.samples > 1 ? `__samples-${arm.samples}` : '';
  return `taskloop__${arm.agent ?? 'champion'}__${model}__learning-${arm.learning ? 'on' : 'off'}${samples}`.replace(
    /[/\s]/g,
    '_',
  );
}

/** The predictions file's text: one JSON object a line. */
export const predictionsJsonl = (predictions: readonly Prediction[]): string =>
  predictions.map((prediction) => `${JSON.stringify(prediction)}\n`).join('');
