// The task spec: what one task asks for, validated at the edge (CLI, tasks file, client) before a workflow starts.
import { z } from 'zod';
import { approvalModes, DEFAULT_APPROVAL_TIMEOUT_MS } from './approval.js';
import { budgetsSchema } from './budget-schema.js';
import { environmentSpecSchema } from './environment.js';
import { modelChoiceSchema, splitModelChoices } from './model-options.js';
import { modelSpecPattern } from './providers.js';
import { isPytestNodeId } from './pytest-node-id.js';
import { branchNameProblem } from './landing.js';
import { repoUrlProblem } from './repo-url.js';
import { retryCap } from './retry-decision.js';
import { MAX_SAMPLES } from './samples.js';
import { limitNames, limitRanges, type LimitName } from './sandbox-limits.js';
import { formatSpecIssues, type SpecIssue } from './task-spec-errors.js';

const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A model choice: `<provider>:<model or file>` for a provider of domain/providers.ts. */
export { modelSpecPattern };
const envNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

const modelSpec = z.string().regex(modelSpecPattern);
const agentVersionId = z.string().regex(namePattern).optional();
const wholeNumber = (min: number, max?: number) => {
  const base = z.number().int().min(min);
  return max === undefined ? base : base.max(max);
};

const modelChoice = modelChoiceSchema(modelSpec);

/** Each resource limit a task may set, within its range (domain/sandbox-limits.ts). */
function limitFields() {
  const range = (name: LimitName) => wholeNumber(limitRanges[name].min, limitRanges[name].max);
  return {
    memoryMb: range('memoryMb'),
    processes: range('processes'),
    fileSizeMb: range('fileSizeMb'),
    cpuSeconds: range('cpuSeconds'),
    outputMb: range('outputMb'),
    writtenMb: range('writtenMb'),
    files: range('files'),
  };
}

/**
 * Which model serves each role; only the coder is required. The coder, reviewer and judge may be written with
 * settings: `{ model, contextWindow, serverWaitMs }` (domain/model-options.ts).
 */
export const modelsSchema = z.strictObject({
  coder: modelChoice,
  reviewer: modelChoice.optional(),
  judge: modelChoice.optional(),
  skillWriter: modelSpec.optional(),
});

/** The fields of one task as written; unknown keys are refused so a misspelt option never passes silently. */
export const taskSpecFieldsSchema = z.strictObject({
  id: z.string().regex(namePattern),
  project: z.string().regex(namePattern).default('default'),
  /** A local path or a git URL (file://, ssh://, https://, git://, user@host:path); see domain/repo-url.ts. */
  repo: z
    .string()
    .min(1)
    .refine((repo) => repoUrlProblem(repo) === undefined, {
      error: (issue) => `${repoUrlProblem(String(issue.input)) ?? 'is not usable'}`,
    }),
  baseRef: z.string().min(1).default('HEAD'),
  /**
   * The branch the task's change lands on once it passed (and was approved, where approval is required): through the
   * branch's landing queue, merged onto its head and tested there first (docs/review-and-land.md). Absent: the change
   * stays on `taskloop/<id>`.
   */
  landOn: z
    .string()
    .refine((branch) => branchNameProblem(branch) === undefined, {
      error: (issue) =>
        `cannot be a branch: it ${branchNameProblem(String(issue.input))} (pass a branch name such as "main")`,
    })
    .optional(),
  goal: z
    .string()
    .max(20_000)
    .refine((goal) => goal.trim() !== '', { message: 'the goal is blank: say what the change should do' }),
  testCommand: z
    .array(z.string().min(1))
    .min(1)
    .default(() => ['python3', '-m', 'pytest']),
  testEnv: z.record(z.string(), z.string()).default(() => ({})),
  testTimeoutMs: wholeNumber(1_000, 7_200_000).default(600_000),
  acceptanceTests: z.array(z.string().min(1).refine(isPytestNodeId)).default(() => []),
  /** Empty means the change may touch any path. */
  allowedPaths: z.array(z.string().min(1)).default(() => []),
  allowTestEdits: z.boolean().default(false),
  /** New coder attempts after a failure; the loop's cap (retryCap) is the most a task gets, so more is refused. */
  maxRetries: wholeNumber(0, retryCap).default(retryCap),
  /**
   * Candidates each attempt may draw (domain/samples.ts): the first at the coder's own sampling, each further one in a
   * fresh worktree at a warmer temperature, until one passes the tests. Absent or 1: one coder run an attempt.
   */
  samples: wholeNumber(1, MAX_SAMPLES).optional(),
  models: modelsSchema,
  maxCoderSteps: wholeNumber(1, 200).default(30),
  retryWindowMs: wholeNumber(0).default(0),
  /**
   * `required`: after the commit the task waits for a person (approve, request changes, reject; domain/approval.ts),
   * at most `approvalTimeoutMs` (7 days by default), holding no worker slot while it waits.
   */
  approval: z.enum(approvalModes).default('none'),
  approvalTimeoutMs: wholeNumber(1_000).default(DEFAULT_APPROVAL_TIMEOUT_MS),
  /** Names of environment variables whose values are secrets (scrubbed from logs and records). */
  secretEnvNames: z.array(z.string().regex(envNamePattern)).default(() => []),
  envRetryLimit: wholeNumber(0, 10).default(3),
  /** How long a worktree-bound step may wait for its host to pick it up before the host counts as lost (the attempt moves to a live host). */
  hostLostAfterMs: wholeNumber(5_000, 3_600_000).default(45_000),
  /**
   * How long a running step may go without a heartbeat before Temporal counts its worker as gone and retries it. Steps
   * heartbeat every second while they wait on a process or a model, but not through every short stretch (the coder's
   * first reads include a learning query of up to 5 s): 10 s at least. Short in tests that kill workers.
   */
  heartbeatTimeoutMs: wholeNumber(10_000, 600_000).default(20_000),
  /** Limits across all attempts (model calls, tokens, cost, wall time); each has a safe default. */
  budgets: budgetsSchema.prefault({}),
  /** How test runs are isolated: `bwrap` (the worker's default) or `none` (no sandbox: explicit opt-in). */
  sandbox: z.enum(['bwrap', 'none']).optional(),
  /** Lets the tests use the host's network (bwrap mode unshares it by default). */
  network: z.boolean().optional(),
  /** Resource limits of test runs, over the worker's defaults. */
  limits: z.strictObject(limitFields()).partial().optional(),
  /**
   * The repository's environment (domain/environment.ts): `auto`, or `{ setup, python, files, timeoutMs }`. Built once
   * per repository, set-up, dependency files and interpreter, and shown read-only to every test run.
   */
  environment: environmentSpecSchema.optional(),
  /**
   * false: this task neither adapts its attempts nor reports its failures to the project's learning workflow (so it makes no
   * skills); an eval's `--learning off` arm. Absent or true: learning as the worker allows.
   */
  learning: z.boolean().optional(),
  /** Agent versions to use instead of each role's champion in agents/registry.json. */
  agents: z
    .strictObject({
      coder: agentVersionId,
      reviewer: agentVersionId,
      judge: agentVersionId,
      skillWriter: agentVersionId,
    })
    .optional(),
  /**
   * Why the coder version runs, in words (domain/agent-choice.ts): recorded by the CLI when it chose, shown by show,
   * status and the Web UI; not written by hand (a tasks file's schema leaves it out, and the CLI sets it anew).
   */
  agentsChosenBy: z.strictObject({ coder: z.string().min(1).max(200).optional() }).optional(),
});

/** Schema of one task: its fields, with each role's model spec apart from its settings (`modelOptions`). */
export const taskSpecSchema = taskSpecFieldsSchema
  .superRefine((fields, ctx) => {
    // Refused here, not at the claim: an environment is built and shown only in the bwrap sandbox.
    if (fields.environment !== undefined && fields.sandbox === 'none')
      ctx.addIssue({
        code: 'custom',
        path: ['sandbox'],
        message:
          'a task with an environment runs in the bwrap sandbox (environments are built and shown only there): ' +
          'drop sandbox none, or drop environment to use the worker’s own Python',
      });
  })
  .transform(({ models, ...fields }) => ({
    ...fields,
    ...splitModelChoices(models),
  }));

/** A validated task spec, defaults applied. */
export type TaskSpec = z.infer<typeof taskSpecSchema>;
/** What a caller may write: fields with defaults are optional. */
export type TaskSpecInput = z.input<typeof taskSpecSchema>;

export type ParseTaskSpecResult =
  { success: true; data: TaskSpec } | { success: false; error: string; issues: SpecIssue[] };

/** Validates a task spec; on failure `error` has one line per issue naming the field, the value and the fix. */
export function parseTaskSpec(input: unknown): ParseTaskSpecResult {
  const result = taskSpecSchema.safeParse(input);
  if (result.success) return { success: true, data: result.data };
  const issues = formatSpecIssues(result.error.issues, input, knownFields);
  return { success: false, error: issues.map((issue) => `${issue.field}: ${issue.message}`).join('\n'), issues };
}

const knownFields: Record<string, string[]> = {
  '': Object.keys(taskSpecFieldsSchema.shape),
  models: Object.keys(modelsSchema.shape),
  ...Object.fromEntries(
    (['coder', 'reviewer', 'judge'] as const).map((role) => [
      `models.${role}`,
      ['model', 'contextWindow', 'serverWaitMs'],
    ]),
  ),
  budgets: Object.keys(budgetsSchema.shape),
  agents: ['coder', 'reviewer', 'judge', 'skillWriter'],
  environment: ['setup', 'python', 'files', 'timeoutMs'],
  limits: limitNames,
};

/** The workflow id of a task; fixed per task so a second start of the same task is a no-op. */
export function taskWorkflowId(spec: { project: string; id: string }): string {
  return `task-${spec.project}-${spec.id}`;
}
