// Where a provider finds its server and key: per-role variables first, then the vendor's standard ones.
import { contextWindowVariables } from '../../domain/model-context.js';
import type { ModelOptions } from '../../domain/model-options.js';
import { DEFAULT_MODEL_WAIT_MS } from '../../domain/model-wait.js';
import { endpointVariables, type RemoteProviderName } from '../../domain/providers.js';
import type { ModelRole } from './types.js';

export type ProviderKind = RemoteProviderName;

export interface ProviderEndpoint {
  baseURL?: string;
  apiKey?: string;
  /** The variable a user should set for the key (named in authentication errors). */
  keyVariable: string;
  /** The vendor's base-URL variable (named in the missing-key error, for local servers that need no key). */
  baseVariable: string;
  /**
   * Milliseconds one model call may take, when TASKLOOP_MODEL_TIMEOUT_MS fixes it; otherwise each call's timeout is
   * derived from its output limit and `minTokensPerSecond` (domain/model-limits.ts).
   */
  timeoutMs?: number;
  /** The slowest generation a call is given time for (TASKLOOP_MODEL_MIN_TOKENS_PER_SECOND), when set. */
  minTokensPerSecond?: number;
}

const rolePrefix: Record<ModelRole, string> = {
  coder: 'CODER',
  reviewer: 'REVIEWER',
  judge: 'JUDGE',
  skillWriter: 'SKILL_WRITER',
};

/** `TASKLOOP_CODER_OPENAI_BASE_URL` and the like: the per-role override of a vendor variable. */
export function roleVariable(role: ModelRole, name: string): string {
  return `TASKLOOP_${rolePrefix[role]}_${name}`;
}

function pick(env: Record<string, string | undefined>, names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

/**
 * Resolves the endpoint of `kind` for `role` from `env`: `TASKLOOP_<ROLE>_<VENDOR>_BASE_URL|API_KEY`, then
 * `<VENDOR>_BASE_URL|API_KEY`; a fixed timeout from `TASKLOOP_MODEL_TIMEOUT_MS`, the speed floor from
 * `TASKLOOP_MODEL_MIN_TOKENS_PER_SECOND`.
 */
export function resolveEndpoint(
  kind: ProviderKind,
  role: ModelRole,
  env: Record<string, string | undefined>,
): ProviderEndpoint {
  const names = endpointVariables(kind);
  const baseURL = pick(env, [roleVariable(role, names.baseUrl), names.baseUrl]);
  const key = pick(env, [roleVariable(role, names.apiKey), names.apiKey]);
  const timeoutMs = positiveNumber(env.TASKLOOP_MODEL_TIMEOUT_MS);
  const minTokensPerSecond = positiveNumber(env.TASKLOOP_MODEL_MIN_TOKENS_PER_SECOND);
  return {
    baseURL: baseURL?.value,
    apiKey: key?.value,
    keyVariable: key?.name ?? names.apiKey,
    baseVariable: names.baseUrl,
    ...(timeoutMs === undefined ? {} : { timeoutMs: Math.ceil(timeoutMs) }),
    ...(minTokensPerSecond === undefined ? {} : { minTokensPerSecond }),
  };
}

/** A positive number from a variable, or undefined when unset or not one. */
export function positiveNumber(value: string | undefined): number | undefined {
  const parsed = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isFinite(parsed) && parsed > 0 ? parsed : undefined;
}

/**
 * The context window a person set for `role`: the task's `models.<role>.contextWindow`, the per-role variable, the
 * global one, then the agent version's.
 */
export function contextWindowSetting(
  role: ModelRole,
  env: Record<string, string | undefined>,
  settings: { taskWindow?: number; versionWindow?: number } = {},
): { tokens: number; name: string } | undefined {
  const { taskWindow, versionWindow } = settings;
  if (taskWindow !== undefined) return { tokens: taskWindow, name: `models.${role}.contextWindow` };
  for (const name of contextWindowVariables(rolePrefix[role])) {
    const tokens = positiveNumber(env[name]);
    if (tokens !== undefined) return { tokens: Math.floor(tokens), name };
  }
  return versionWindow === undefined ? undefined : { tokens: versionWindow, name: "the agent version's contextWindow" };
}

/** The names a person can set the window of `role` by, for messages. */
export const contextWindowSettingNames = (role: ModelRole): string[] => [
  `models.${role}.contextWindow`,
  ...contextWindowVariables(rolePrefix[role]),
];

/** The wait bound for an unreachable server: the task's setting, else TASKLOOP_MODEL_WAIT_MS, else the default. */
export function serverWaitBoundMs(taskSetting: number | undefined, env: Record<string, string | undefined>): number {
  return taskSetting ?? positiveNumber(env.TASKLOOP_MODEL_WAIT_MS) ?? DEFAULT_MODEL_WAIT_MS;
}

/** The coder's wait bound and context window from the task's `models.coder` settings, the variables, the registry. */
export function coderModelSettings(
  env: Record<string, string | undefined>,
  task: ModelOptions | undefined,
  versionWindow: number | undefined,
) {
  return {
    modelWaitMs: serverWaitBoundMs(task?.serverWaitMs, env),
    contextWindow: contextWindowSetting('coder', env, { taskWindow: task?.contextWindow, versionWindow }),
    contextWindowNames: contextWindowSettingNames('coder'),
  };
}
