// Maps a model spec to its provider: one factory per provider of domain/providers.ts.
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { acceptedModelForms, splitModelSpec, type ProviderName } from '../../domain/providers.js';
import { createAnthropicProvider } from './anthropic.js';
import { createOpenAIProvider } from './openai.js';
import { resolveEndpoint } from './provider-env.js';
import { createScriptedProvider, loadScript } from './scripted.js';
import { traceModelCalls } from './traced-provider.js';
import type { ModelParameters, ModelProvider, ModelRole } from './types.js';

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

type ProviderFactory = (rest: string, options: ModelProviderOptions) => Promise<ModelProvider>;

/** One entry per provider of domain/providers.ts (the type makes a missing one a compile error). */
export const providerFactories: Record<ProviderName, ProviderFactory> = {
  async scripted(rest, options) {
    const file = path.resolve(options.cwd, rest);
    const script = await loadScript(file);
    const startTurn = typeof options.startTurn === 'number' ? { [options.role]: options.startTurn } : options.startTurn;
    return createScriptedProvider({ file, script, startTurn });
  },
  async openai(rest, options) {
    const endpoint = resolveEndpoint('openai', options.role, options.env ?? process.env);
    return createOpenAIProvider({ model: rest, role: options.role, endpoint, parameters: options.parameters });
  },
  async local(rest, options) {
    // The worker's own llama-server, loaded only for this provider; its OpenAI protocol goes through the openai
    // provider, with no key: a key meant for a hosted vendor is never sent to it.
    const { ensureOwnedLocalServer, LocalModelUnusable } = await import('../../platform/local-model/owned-server.js');
    const env = options.env ?? process.env;
    const ensure = () =>
      ensureOwnedLocalServer(rest, { env }).catch((error: unknown) => {
        if (!(error instanceof LocalModelUnusable)) throw error;
        throw ApplicationFailure.create({ type: 'InvalidModelSpec', nonRetryable: true, message: error.message });
      });
    const baseURL = await ensure();
    const endpoint = { ...resolveEndpoint('openai', options.role, env), baseURL, apiKey: undefined };
    const provider = createOpenAIProvider({
      model: rest,
      role: options.role,
      endpoint,
      parameters: options.parameters,
    });
    return {
      ...provider,
      // A server of ours that stopped (killed, crashed) starts again on its port before the next call: the coder's
      // wait for an unreachable server (activities/coder/model-call.ts) would otherwise wait for nothing.
      async complete(request) {
        await ensure();
        return provider.complete(request);
      },
    };
  },
  async anthropic(rest, options) {
    const endpoint = resolveEndpoint('anthropic', options.role, options.env ?? process.env);
    return createAnthropicProvider({ model: rest, role: options.role, endpoint, parameters: options.parameters });
  },
};

/** Creates the provider for one role from its spec, its calls traced; throws non-retryable failures for unusable specs. */
export async function createModelProvider(spec: string, options: ModelProviderOptions): Promise<ModelProvider> {
  const split = splitModelSpec(spec);
  if (split) return traceModelCalls(await providerFactories[split.provider](split.rest, options));
  throw ApplicationFailure.create({
    type: 'InvalidModelSpec',
    nonRetryable: true,
    message: `model spec for the ${options.role} is '${spec}', which is not valid; use one of ${acceptedModelForms}`,
  });
}
