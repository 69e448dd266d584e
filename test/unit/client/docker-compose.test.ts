import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../platform/paths.js';
import { searchAttributeCliPairs } from '../../../workflows/search-attributes.js';

interface ComposeFile {
  services: Record<string, { image?: string; ports?: string[]; command?: string[] }>;
}

const compose = async (): Promise<ComposeFile> => parse(await readFile(path.join(projectRoot, 'docker-compose.temporal.yml'), 'utf8'));

describe('docker-compose.temporal.yml', () => {
  it('creates exactly the search attributes defined in code, with the same types', async () => {
    const { services } = await compose();
    const script = services['temporal-search-attributes']?.command?.join('\n') ?? '';
    const created = [...script.matchAll(/^\s*create (\w+) (\w+)\s*$/gm)].map((match) => ({ name: match[1], type: match[2] }));
    expect(created).toEqual(searchAttributeCliPairs());
  });

  it('publishes the Temporal frontend on 7233 and the Web UI on 8080', async () => {
    const { services } = await compose();
    expect(services.temporal?.ports).toContain('7233:7233');
    expect(services['temporal-ui']?.ports).toContain('8080:8080');
  });

  it('pins every image to an exact version', async () => {
    const { services } = await compose();
    const images = Object.values(services).map((service) => service.image ?? '');
    expect(images.length).toBeGreaterThanOrEqual(5);
    for (const image of images) expect(image).toMatch(/^[\w./-]+:\d+(\.\d+)+$/);
  });
});
