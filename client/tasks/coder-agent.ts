// The coder version of each task a command starts, chosen at input (domain/agent-choice.ts) from the registry the
// workers read: an unknown version is refused before anything starts, naming the known ones.
import { readFile } from 'node:fs/promises';
import { parseAgentRegistry, type AgentRegistry } from '../../domain/agents.js';
import { chooseCoderVersion, type CoderChoiceInputs } from '../../domain/agent-choice.js';
import type { TaskSpec } from '../../domain/task-spec.js';
import { UsageError } from '../cli-errors.js';
import { registryFile } from '../eval/promote.js';

/** The agent registry ($TASKLOOP_AGENTS_FILE or the checkout's); undefined when there is none (the built-in versions). */
export async function readAgentRegistry(
  command: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<AgentRegistry | undefined> {
  const file = registryFile(env);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && env.TASKLOOP_AGENTS_FILE === undefined) return undefined;
    throw new UsageError(
      `taskloop ${command}: agent registry ${file} cannot be read (${String(error)}); fix: create it or set TASKLOOP_AGENTS_FILE`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`taskloop ${command}: agent registry ${file} is not valid JSON (${(error as Error).message})`);
  }
  const parsed = parseAgentRegistry(json);
  if (!parsed.success) throw new UsageError(`taskloop ${command}: agent registry ${file} is invalid:\n${parsed.error}`);
  return parsed.data;
}

/** What a command knows beyond the spec: its `--agent` flag and the config file's `agents.coder`. */
export interface CommandCoderChoice {
  flag?: string;
  config?: string;
}

/**
 * The spec with its coder version and why: `agents.coder` set (left unset for the champion, which the worker picks)
 * and `agentsChosenBy.coder` saying why. The spec's own `agents.coder` (a task's, or its tasks file's defaults')
 * counts as the task's choice, with the words its loader recorded.
 */
export function withCoderChoice(
  command: string,
  spec: TaskSpec,
  registry: AgentRegistry | undefined,
  choice: CommandCoderChoice,
): TaskSpec {
  const own = spec.agents?.coder;
  const inputs: CoderChoiceInputs = {
    ...(choice.flag === undefined ? {} : { flag: { version: choice.flag, why: '--agent' } }),
    ...(own === undefined
      ? {}
      : { task: { version: own, why: spec.agentsChosenBy?.coder ?? "the task's agents.coder" } }),
    ...(choice.config === undefined
      ? {}
      : { config: { version: choice.config, why: 'taskloop.config.json agents.coder' } }),
  };
  const chosen = chooseCoderVersion(registry, spec.models.coder, inputs);
  if (!chosen.success) throw new UsageError(`taskloop ${command}: agents.coder: ${chosen.error}`);
  const { version, why } = chosen.data;
  if (version === undefined) return spec;
  return {
    ...spec,
    agents: { ...spec.agents, coder: version },
    agentsChosenBy: { ...spec.agentsChosenBy, coder: why },
  };
}
