// A SWE-bench-style JSONL file as an eval suite: each row's repository cloned once (bare, into the eval cache), its
// gold patch and test patch applied to base_commit on a private index and kept as a commit of their own
// (refs/taskloop/swe-bench/<id>), which the suite then names as the instance's fix: its parent is the base, its test
// files are laid over the checkout for verification, its other files are the oracle. Nothing touches a work tree.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { goalOf, parseSweBenchJsonl, type SweBenchRow } from '../../domain/eval/swe-bench.js';
import type { Suite } from '../../domain/eval/suite.js';
import { UsageError } from '../cli-errors.js';
import { commitPatches } from './patch-commit.js';
import { localRepository } from './resolve-instances.js';

/** The test command when a row names none: pytest, as SWE-bench's pytest repositories run. */
export const DEFAULT_SWE_BENCH_COMMAND = ['python3', '-m', 'pytest', '-p', 'no:cacheprovider'];

/** The commit holding base_commit with the row's patch and test patch applied; a patch that does not apply is named. */
async function fixCommitOf(repo: string, row: SweBenchRow, at: string): Promise<string> {
  const made = await commitPatches({
    repo,
    base: row.base_commit,
    patches: [
      { name: 'patch', diff: row.patch },
      { name: 'test_patch', diff: row.test_patch },
    ],
    ref: `refs/taskloop/swe-bench/${row.instance_id}`,
    message: `SWE-bench ${row.instance_id}: patch and test_patch on ${row.base_commit.slice(0, 12)}`,
  });
  if (made.ok) return made.sha;
  if (made.problem === 'base')
    throw new UsageError(
      `${at}: base_commit: ${row.base_commit} is not a commit of ${row.repo}; fix: check the row, or point mirror at a clone that has it`,
    );
  if (made.problem === 'apply')
    throw new UsageError(
      `${at}: ${made.patch}: does not apply to base_commit ${row.base_commit.slice(0, 12)} (${made.detail}); fix: copy ${made.patch} whole from the dataset (a unified diff against base_commit)`,
    );
  throw new UsageError(
    `${at}: cannot write the fix commit into ${repo} (${made.detail}); fix: check the eval cache's disk`,
  );
}

/** The suite name of a file: its base name, in the letters a suite name allows. */
const suiteNameOf = (file: string) =>
  path
    .basename(file)
    .replace(/\.jsonl$/i, '')
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 40) || 'swe-bench';

/** Reads a SWE-bench-style JSONL file into a suite (usage errors name the line, the field, the value and the fix). */
export async function readSweBenchSuite(
  file: string,
  options: { cacheDir: string },
): Promise<{ suite: Suite; text: string; rows: SweBenchRow[] }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `taskloop eval: ${file} cannot be read (${(error as Error).message}); pass the path of a SWE-bench .jsonl`,
    );
  }
  const parsed = parseSweBenchJsonl(text);
  if (!parsed.success)
    throw new UsageError(
      parsed.issues.map((issue) => `${file}: line ${issue.line}: ${issue.field}: ${issue.message}`).join('\n'),
    );
  const instances: Suite['instances'] = [];
  for (const [index, row] of parsed.rows.entries()) {
    const at = `${file}: line ${parsed.lines[index] ?? '?'}`;
    const repo = await localRepository(
      {
        repo: `https://github.com/${row.repo}`,
        ...(row.mirror ? { mirror: row.mirror } : {}),
      } as Suite['instances'][number],
      `${at}: repo`,
      { suiteDir: path.dirname(file), cacheDir: options.cacheDir },
    );
    const fixCommit = await fixCommitOf(repo, row, at);
    instances.push({
      id: row.instance_id,
      repo,
      fixCommit,
      goal: goalOf(row),
      failToPass: row.FAIL_TO_PASS,
      passToPass: row.PASS_TO_PASS,
      ...(row.test_command ? { testCommand: row.test_command } : {}),
      ...(row.test_env ? { testEnv: row.test_env } : {}),
      ...(row.max_steps === undefined ? {} : { hints: { maxSteps: row.max_steps } }),
    });
  }
  const suite: Suite = {
    name: suiteNameOf(file),
    description: `SWE-bench-style instances from ${path.basename(file)}`,
    defaults: { testCommand: DEFAULT_SWE_BENCH_COMMAND },
    instances,
  };
  return { suite, text, rows: parsed.rows };
}
