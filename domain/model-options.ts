// Per-task settings of a role's model, written beside its spec: `models.coder: { model, contextWindow, serverWaitMs }`
// instead of `models.coder: "<spec>"`. The spec keeps `models.<role>` a plain string; the settings travel apart in
// `modelOptions`, so every reader of a role's model stays as it was.
import { z } from 'zod';

/** The roles whose model calls honour the settings (the skill writer's model takes only a spec). */
export const optionRoles = ['coder', 'reviewer', 'judge'] as const;
export type OptionRole = (typeof optionRoles)[number];

/** The most a task may wait for a model server (an hour); 0 fails at the first unreachable call. */
export const MAX_SERVER_WAIT_MS = 3_600_000;
const MIN_CONTEXT_WINDOW = 256;
const MAX_CONTEXT_WINDOW = 10_000_000;

export const modelOptionsFields = {
  /** The model's context window in tokens, when its server does not report one (llama.cpp and Ollama do). */
  contextWindow: z.number().int().min(MIN_CONTEXT_WINDOW).max(MAX_CONTEXT_WINDOW).optional(),
  /** How long an unreachable or restarting server is waited for before the run fails (TASKLOOP_MODEL_WAIT_MS). */
  serverWaitMs: z.number().int().min(0).max(MAX_SERVER_WAIT_MS).optional(),
};

export interface ModelOptions {
  contextWindow?: number;
  serverWaitMs?: number;
}

/** A role's model as written: its spec, or its spec with settings. */
export const modelChoiceSchema = (spec: z.ZodString) =>
  z.union([spec, z.strictObject({ model: spec, ...modelOptionsFields })]);

type Choice = string | ({ model: string } & ModelOptions);

/** Splits `models` as written into the roles' specs and, for roles given settings, the settings. */
export function splitModelChoices<M extends Partial<Record<string, Choice>>>(
  models: M,
): { models: { [K in keyof M]: string }; modelOptions?: Partial<Record<OptionRole, ModelOptions>> } {
  const specs: Record<string, string> = {};
  const options: Partial<Record<OptionRole, ModelOptions>> = {};
  for (const [role, choice] of Object.entries(models)) {
    if (choice === undefined) continue;
    if (typeof choice === 'string') {
      specs[role] = choice;
      continue;
    }
    const { model, ...settings } = choice;
    specs[role] = model;
    if (Object.keys(settings).length > 0) options[role as OptionRole] = settings;
  }
  return {
    models: specs as { [K in keyof M]: string },
    ...(Object.keys(options).length > 0 ? { modelOptions: options } : {}),
  };
}

/** Field help for the settings (domain/task-spec-errors.ts): what is expected and the fix, per role. */
export function modelOptionsHelp(role: OptionRole): Record<string, { expected: string; fix: string }> {
  return {
    [`models.${role}.contextWindow`]: {
      expected: `a whole number of tokens from ${MIN_CONTEXT_WINDOW} to ${MAX_CONTEXT_WINDOW}`,
      fix: `set models.${role}.contextWindow to the server's window, e.g. 8192 (llama-server --ctx-size), or leave it out`,
    },
    [`models.${role}.serverWaitMs`]: {
      expected: `a whole number of milliseconds from 0 to ${MAX_SERVER_WAIT_MS}`,
      fix: `set models.${role}.serverWaitMs to e.g. 60000 (0: fail at the first unreachable call), or leave it out`,
    },
  };
}
