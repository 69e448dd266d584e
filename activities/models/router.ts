// Maps a model spec (`scripted:<file>`, `openai:<model>`, `anthropic:<model>`) to a provider.
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { createAnthropicProvider } from './anthropic.js';
import { createOpenAIProvider } from './openai.js';
import { resolveEndpoint } from './provider-env.js';
import { createScriptedProvider, loadScript } from './scripted.js';
import { traceModelCalls } from './traced-provider.js';
import type { ModelParameters, ModelProvider, ModelRole } from './types.js';

const acceptedForms = 'scripted:<file.json>, openai:<model> or anthropic:<model>';

export interface ModelProviderOptions {
  role: ModelRole;
  /** Turns already consumed: a number for `role`, or counts per role. */
  startTurn?: number | Partial<Record<ModelRole, number>>;
  /** Directory that relative `scripted:` paths resolve against. */
  cwd: string;
  /** Where base URLs, keys and the timeout are read (default `process.env`). */
  env?: Record<string, string | undefined>;
  parameters?: ModelParameters;
}

/** Creates the provider for one role from its spec, its calls traced; throws non-retryable failures for unusable specs. */
export async function createModelProvider(spec: string, options: ModelProviderOptions): Promise<ModelProvider> {
  return traceModelCalls(await createProvider(spec, options));
}

async function createProvider(spec: string, options: ModelProviderOptions): Promise<ModelProvider> {
  const colon = spec.indexOf(':');
  const kind = colon === -1 ? '' : spec.slice(0, colon);
  const rest = colon === -1 ? '' : spec.slice(colon + 1).trim();

  if (kind === 'scripted' && rest !== '') {
    const file = path.resolve(options.cwd, rest);
    const script = await loadScript(file);
    const startTurn = typeof options.startTurn === 'number' ? { [options.role]: options.startTurn } : options.startTurn;
    return createScriptedProvider({ file, script, startTurn });
  }
  if ((kind === 'openai' || kind === 'anthropic') && rest !== '') {
    const endpoint = resolveEndpoint(kind, options.role, options.env ?? process.env);
    const create = kind === 'openai' ? createOpenAIProvider : createAnthropicProvider;
    return create({ model: rest, role: options.role, endpoint, parameters: options.parameters });
  }
  throw ApplicationFailure.create({
    type: 'InvalidModelSpec',
    nonRetryable: true,
    message: `model spec for the ${options.role} is '${spec}', which is not valid; use one of ${acceptedForms}`,
  });
}
