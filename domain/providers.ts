// The model providers, listed once: the model-spec pattern, the accepted forms in error messages, the router, the
// endpoint variables and the table in docs/models.md all derive from this list (a unit test checks the page against it).

export interface ProviderEntry {
  /** The spec prefix before the colon: `openai` in `openai:gpt-4o`. */
  name: string;
  /** The accepted form, as error messages and docs show it. */
  form: string;
  /** A complete spec to suggest in a fix. */
  example: string;
  /** What it talks to, in a few words (the table in docs/models.md). */
  protocol: string;
  /** The vendor word of its variables (`<VENDOR>_BASE_URL`, `<VENDOR>_API_KEY`); absent for a local provider. */
  envVendor?: string;
}

export const providers = [
  {
    name: 'openai',
    form: 'openai:<model>',
    example: 'openai:gpt-4o-mini',
    protocol: 'OpenAI-compatible chat completions with tool calling',
    envVendor: 'OPENAI',
  },
  {
    name: 'anthropic',
    form: 'anthropic:<model>',
    example: 'anthropic:claude-sonnet-4-5',
    protocol: 'Anthropic Messages API with tool use',
    envVendor: 'ANTHROPIC',
  },
  {
    name: 'local',
    form: 'local:<model>',
    example: 'local:qwen2.5-coder-1.5b',
    protocol:
      "a local model server the worker starts itself (node-llama-cpp, or llama.cpp's `llama-server`; after `taskloop model install`)",
  },
  {
    name: 'scripted',
    form: 'scripted:<file>',
    example: 'scripted:turns.json',
    protocol: 'recorded turns replayed in order',
  },
] as const satisfies readonly ProviderEntry[];

export type ProviderName = (typeof providers)[number]['name'];
/** Providers reached over the network, with a base URL and a key. */
export type RemoteProviderName = Extract<(typeof providers)[number], { envVendor: string }>['name'];

const names = providers.map((provider) => provider.name);

/** A model choice: `<provider>:<rest>` for a provider in the list. */
export const modelSpecPattern = new RegExp(`^(${names.join('|')}):.+`);

/** "openai:<model>, anthropic:<model> or scripted:<file>": the forms, for messages that say what is accepted. */
export const acceptedModelForms = joinOr(providers.map((provider) => provider.form));

/** The same forms, each in double quotes (the task spec's messages quote them). */
export const quotedModelForms = joinOr(providers.map((provider) => `"${provider.form}"`));

/** A spec to suggest in a fix. */
export const exampleModelSpec: string = providers[0].example;

/** The provider a spec names and the rest after its colon (trimmed); undefined when no provider matches. */
export function splitModelSpec(spec: string): { provider: ProviderName; rest: string } | undefined {
  const colon = spec.indexOf(':');
  if (colon === -1) return undefined;
  const name = spec.slice(0, colon);
  const rest = spec.slice(colon + 1).trim();
  const provider = providers.find((entry) => entry.name === name);
  return provider && rest !== '' ? { provider: provider.name, rest } : undefined;
}

/** The standard variables of a remote provider's endpoint and key. */
export function endpointVariables(name: RemoteProviderName): { baseUrl: string; apiKey: string } {
  const entry: ProviderEntry | undefined = providers.find((provider) => provider.name === name);
  const vendor = entry?.envVendor ?? name.toUpperCase();
  return { baseUrl: `${vendor}_BASE_URL`, apiKey: `${vendor}_API_KEY` };
}

function joinOr(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}
