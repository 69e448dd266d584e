// An eval suite: real bug fixes as instances (repository, base ref or upstream fix commit, goal, the tests that must
// start passing and the tests that must keep passing). Validated at the edge; nothing starts on a bad suite.
import { z } from 'zod';
import { environmentSpecSchema } from '../environment.js';
import { repoUrlProblem } from '../repo-url.js';

const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
const shaPattern = /^[0-9a-f]{7,40}$/;
/** A pytest node id: a file ending in .py, optionally followed by ::names and a [parameter]. */
export const nodeIdPattern = /^[^\s:]+\.py(::[^\s:][^\s]*)*$/;

/** True when a node id's file lies inside the repository: no `..` segment, not absolute (it would be "missing" later). */
export function nodeIdInsideRepo(id: string): boolean {
  const file = id.split('::')[0] ?? '';
  return !file.startsWith('/') && !file.split(/[/\\]/).includes('..');
}

const nodeId = z.string().regex(nodeIdPattern).refine(nodeIdInsideRepo);
const argv = z.array(z.string().min(1)).min(1);

export const suiteHintsSchema = z.strictObject({
  /** Paths or globs the change may touch (empty: any). */
  allowedPaths: z.array(z.string().min(1)).optional(),
  /** The coder's step limit per attempt. */
  maxSteps: z.number().int().min(1).max(200).optional(),
});

export const suiteInstanceSchema = z.strictObject({
  id: z.string().regex(namePattern),
  /** A local path (relative to the suite file) or a git URL. */
  repo: z
    .string()
    .min(1)
    .refine((repo) => repoUrlProblem(repo) === undefined),
  /** A local copy of `repo` (a bare mirror or a clone) to clone from instead of the URL, when it exists. */
  mirror: z.string().min(1).optional(),
  /** The commit the task starts from; with `fixCommit` it is derived (the fix's parent) and must be left out. */
  baseRef: z.string().min(1).optional(),
  /** The upstream fix: its parent is the base ref, its test changes give failToPass and are laid over the checkout. */
  fixCommit: z.string().regex(shaPattern).optional(),
  goal: z.string().min(1).max(20_000),
  /** Tests that fail at the base ref and must pass after the change (derived from fixCommit when left out). */
  failToPass: z.array(nodeId).optional(),
  /** Tests that pass at the base ref and must still pass after the change. */
  passToPass: z.array(nodeId).optional(),
  testCommand: argv.optional(),
  testEnv: z.record(z.string(), z.string()).optional(),
  /** The repository's environment (as the task field): built before the arms run, used by the tasks and verification. */
  environment: environmentSpecSchema.optional(),
  hints: suiteHintsSchema.optional(),
  /** Scripted coder turns that apply the known fix (relative to the suite file); derived from fixCommit when left out. */
  oracle: z.string().min(1).optional(),
  /** Labels to run a part of the suite by (`taskloop eval --tags one-line`), e.g. a tier of one-line fixes. */
  tags: z.array(z.string().regex(namePattern)).optional(),
});

export const suiteDefaultsSchema = z.strictObject({
  testCommand: argv.optional(),
  testEnv: z.record(z.string(), z.string()).optional(),
  environment: environmentSpecSchema.optional(),
  /** New coder attempts after a failure (0-2). */
  maxRetries: z.number().int().min(0).max(2).optional(),
  testTimeoutMs: z.number().int().min(1_000).max(7_200_000).optional(),
});

export const suiteSchema = z.strictObject({
  name: z.string().regex(namePattern),
  description: z.string().optional(),
  defaults: suiteDefaultsSchema.optional(),
  instances: z.array(suiteInstanceSchema).min(1),
});

export type SuiteInput = z.input<typeof suiteSchema>;
export type Suite = z.infer<typeof suiteSchema>;
export type SuiteInstance = z.infer<typeof suiteInstanceSchema>;
