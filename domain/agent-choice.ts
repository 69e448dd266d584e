// Which coder version a task runs, and why, decided once at input: the first of `--agent`, the task's own
// `agents.coder`, the tasks file's defaults, taskloop.config.json's `agents.coder`, the registry's default for the
// model (its `modelDefaults`: local and small models get the small-model version), and the registry's champion.
// The reason travels with the task (`agentsChosenBy`), so show, status and the Web UI say why a version ran.
import type { AgentRegistry, ModelDefault } from './agents.js';
import { parametersInName } from './model-size.js';
import { splitModelSpec } from './providers.js';

/** The choices above the registry's, as written (a version id, or undefined) with the words that name where. */
export interface CoderChoiceInputs {
  flag?: { version: string; why: string };
  /** From the task itself (a tasks file's task or defaults); `why` as the loader recorded it. */
  task?: { version: string; why: string };
  config?: { version: string; why: string };
}

/** The version chosen (undefined: the champion, left to the worker) and why. */
export interface CoderChoice {
  version?: string;
  why: string;
}

export const CHAMPION_WHY = "the registry's champion";

/** The registry's rule for `model`, if one matches. */
export function modelDefaultFor(rules: readonly ModelDefault[], model: string): ModelDefault | undefined {
  const split = splitModelSpec(model);
  return rules.find((rule) => {
    if (rule.provider !== undefined && rule.provider !== split?.provider) return false;
    if (rule.parametersAtMost === undefined) return true;
    const size = parametersInName(model);
    return size !== undefined && size <= rule.parametersAtMost;
  });
}

/**
 * The coder version of a task on `model`; an unknown version is refused naming where it came from and the known ones.
 * A registry that is missing (undefined) has only `builtin`.
 */
export function chooseCoderVersion(
  registry: AgentRegistry | undefined,
  model: string,
  inputs: CoderChoiceInputs,
): { success: true; data: CoderChoice } | { success: false; error: string } {
  const entry = registry?.coder;
  const known = entry ? Object.keys(entry.versions) : ['builtin'];
  const asked = inputs.flag ?? inputs.task ?? inputs.config;
  if (asked) {
    if (known.includes(asked.version)) return { success: true, data: asked };
    return {
      success: false,
      error: `no coder version ${JSON.stringify(asked.version)} (from ${asked.why}); known versions: ${known.join(', ')}`,
    };
  }
  const rule = entry && modelDefaultFor(entry.modelDefaults ?? [], model);
  if (rule && rule.version !== entry?.champion)
    return { success: true, data: { version: rule.version, why: `default for ${rule.for}` } };
  return { success: true, data: { why: rule ? `default for ${rule.for}` : CHAMPION_WHY } };
}
