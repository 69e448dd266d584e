// `taskloop.config.json`: a user's defaults for `taskloop run` — a model per role, the coder version, budgets and the environment — so a
// team can name its models once. Flags win over the file; the file wins over built-in defaults. Found in the working folder, or
// at $TASKLOOP_CONFIG.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { approvalModes } from '../domain/approval.js';
import { acceptedModelForms, modelSpecPattern } from '../domain/providers.js';
import { UsageError } from './cli-errors.js';

const modelSpec = z.string().regex(modelSpecPattern, { error: `expected ${acceptedModelForms}` });

const configSchema = z.strictObject({
  models: z
    .strictObject({ coder: modelSpec, reviewer: modelSpec, judge: modelSpec, skillWriter: modelSpec })
    .partial()
    .optional(),
  /** The coder version for every task run from here, over the model's default (domain/agent-choice.ts). */
  agents: z
    .strictObject({ coder: z.string().min(1) })
    .partial()
    .optional(),
  /** Checked with the task spec's own budget schema when the task is validated. */
  budgets: z.record(z.string(), z.unknown()).optional(),
  /** As `run --environment`: `auto`, or the name of an environment built on this machine (taskloop env list). */
  environment: z.string().min(1).optional(),
  /** The branch every task run from here lands on (checked with the task spec's own rule). */
  landOn: z.string().optional(),
  /** A team's default for `taskloop run`: every task waits for a person after its commit (docs/review-and-land.md). */
  approval: z.enum(approvalModes).optional(),
  approvalTimeoutMs: z.number().int().min(1_000).optional(),
});

export type TaskloopConfig = z.infer<typeof configSchema>;
export const CONFIG_FILE_NAME = 'taskloop.config.json';

export async function loadTaskloopConfig(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<TaskloopConfig> {
  const file = env.TASKLOOP_CONFIG ? path.resolve(cwd, env.TASKLOOP_CONFIG) : path.join(cwd, CONFIG_FILE_NAME);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    if (env.TASKLOOP_CONFIG)
      throw new UsageError(`TASKLOOP_CONFIG=${env.TASKLOOP_CONFIG}: no such file; fix the path or unset it`);
    return {};
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top level)'}: ${issue.message}`);
    throw new UsageError(
      `${file}: ${problems.join('; ')} (the file holds "models" {coder, reviewer, judge, skillWriter}, "agents" {coder}, "budgets", "environment", "landOn", "approval" and "approvalTimeoutMs")`,
    );
  }
  // Scripted model files named in the config are relative to the config file, not to wherever `run` is typed.
  const models = Object.fromEntries(
    Object.entries(parsed.data.models ?? {}).map(([role, spec]) => [
      role,
      spec.startsWith('scripted:') ? `scripted:${path.resolve(path.dirname(file), spec.slice(9))}` : spec,
    ]),
  );
  return { ...parsed.data, ...(parsed.data.models ? { models } : {}) };
}

/** The models of a task: the config's per-role defaults, overridden role by role by the flags. */
export function mergeModels(
  config: TaskloopConfig,
  flags: Partial<Record<'coder' | 'reviewer' | 'judge' | 'skillWriter', string>>,
) {
  const defined = Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined));
  const merged = { ...(config.models ?? {}), ...defined };
  return Object.keys(merged).length > 0 ? merged : undefined;
}
