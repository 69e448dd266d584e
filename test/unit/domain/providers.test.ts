import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  acceptedModelForms,
  endpointVariables,
  modelSpecPattern,
  providers,
  splitModelSpec,
} from '../../../domain/providers.js';
import { providerFactories } from '../../../activities/models/router.js';
import { projectRoot } from '../../../platform/paths.js';

/** The rows of the provider table in docs/models.md, cells trimmed. */
async function documentedProviderRows(): Promise<string[][]> {
  const page = await readFile(path.join(projectRoot, 'docs', 'models.md'), 'utf8');
  const lines = page.split('\n');
  const header = lines.findIndex((line) => line.startsWith('| provider | spec |'));
  expect(header, 'docs/models.md has a provider table starting "| provider | spec |"').toBeGreaterThan(-1);
  const rows: string[][] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

describe('providers, listed once', () => {
  it('the docs/models.md table has exactly one row per provider, with its form, protocol and variables', async () => {
    const expected = providers.map((provider) => {
      const variables =
        'envVendor' in provider ? endpointVariables(provider.name) : { baseUrl: undefined, apiKey: undefined };
      const code = (value?: string) => (value ? `\`${value}\`` : '—');
      return [
        code(provider.name),
        code(provider.form),
        provider.protocol,
        code(variables.baseUrl),
        code(variables.apiKey),
      ];
    });
    expect(await documentedProviderRows()).toEqual(expected);
  });

  it('the router has a factory for every provider and for no other', () => {
    expect(Object.keys(providerFactories).sort()).toEqual(providers.map((provider) => provider.name).sort());
  });

  it('the spec pattern accepts every example and refuses other prefixes', () => {
    for (const provider of providers) expect(provider.example).toMatch(modelSpecPattern);
    for (const bad of ['gpt-4o', 'ollama:llama3', 'openai:', ':x']) expect(bad).not.toMatch(modelSpecPattern);
  });

  it('splits a spec into its provider and the rest, model names with colons included', () => {
    expect(splitModelSpec('openai:llama3.1:8b')).toEqual({ provider: 'openai', rest: 'llama3.1:8b' });
    expect(splitModelSpec('scripted: turns.json ')).toEqual({ provider: 'scripted', rest: 'turns.json' });
    expect(splitModelSpec('openai:  ')).toBeUndefined();
    expect(splitModelSpec('mistral:large')).toBeUndefined();
  });

  it('error messages list every form', () => {
    for (const provider of providers) expect(acceptedModelForms).toContain(provider.form);
  });
});
