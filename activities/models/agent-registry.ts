// Reads the agent registry (agents/registry.json, or $TASKLOOP_AGENTS_FILE) on the worker and picks a role's
// version: its champion unless the task pins one. A missing registry means the built-in versions.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApplicationFailure } from '@temporalio/common';
import { readText } from '../small-files.js';
import {
  builtinAgent,
  parseAgentRegistry,
  selectAgentVersion,
  type AgentRole,
  type SelectedAgent,
} from '../../domain/agents.js';

/** The registry shipped in the taskloop checkout. */
export const defaultRegistryFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  import.meta.url.includes('/dist/') ? '../../..' : '../..',
  'agents',
  'registry.json',
);

function invalidRegistry(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: 'InvalidAgentRegistry', nonRetryable: true, message });
}

/** The selected version and its prompt text (undefined for `builtin`: the role's own prompt applies). */
export async function loadAgent(
  role: AgentRole,
  options: { file?: string; pinned?: string } = {},
): Promise<{ agent: SelectedAgent; prompt?: string }> {
  const file = options.file ?? process.env.TASKLOOP_AGENTS_FILE ?? defaultRegistryFile;
  let text: string;
  try {
    text = await readText(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && options.pinned === undefined)
      return { agent: builtinAgent(role) };
    throw invalidRegistry(
      `agent registry ${file} cannot be read (${String(error)}); fix: create it or set TASKLOOP_AGENTS_FILE`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw invalidRegistry(`agent registry ${file} is not valid JSON (${(error as Error).message})`);
  }
  const registry = parseAgentRegistry(json);
  if (!registry.success) throw invalidRegistry(`agent registry ${file} is invalid:\n${registry.error}`);
  const selected = selectAgentVersion(registry.data, role, options.pinned);
  if (!selected.success) throw invalidRegistry(`${selected.error} (registry ${file})`);
  const agent = selected.data;
  if (agent.prompt === 'builtin') return { agent };
  const promptFile = path.resolve(path.dirname(file), agent.prompt);
  try {
    return { agent, prompt: await readText(promptFile) };
  } catch (error) {
    throw invalidRegistry(`prompt ${promptFile} of ${role}/${agent.version} cannot be read (${String(error)})`);
  }
}
