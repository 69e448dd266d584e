import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../platform/paths.js';
import { searchAttributeCliPairs } from '../../../workflows/search-attributes.js';

interface ComposeFile {
  services: Record<string, { image?: string; ports?: string[]; command?: string[] }>;
}

const compose = async (): Promise<ComposeFile> =>
  parse(await readFile(path.join(projectRoot, 'docker-compose.temporal.yml'), 'utf8'));

describe('docker-compose.temporal.yml', () => {
  it('creates exactly the search attributes defined in code, with the same types', async () => {
    const { services } = await compose();
    const script = services['temporal-search-attributes']?.command?.join('\n') ?? '';
    const created = [...script.matchAll(/^\s*create (\w+) (\w+)\s*$/gm)].map((match) => ({
      name: match[1],
      type: match[2],
    }));
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

  it('creates the namespace, waits until it serves, then creates the search attributes', async () => {
    const { services } = await compose();
    const script = services['temporal-search-attributes']?.command?.join('\n') ?? '';
    const at = (pattern: RegExp) => script.search(pattern);
    const namespace = at(/temporal operator namespace create --namespace default/);
    const wait = at(/until temporal operator search-attribute list --namespace default/);
    const firstCreate = at(/^\s*create TaskId/m);
    expect(namespace).toBeGreaterThan(-1);
    expect(wait).toBeGreaterThan(namespace);
    expect(firstCreate).toBeGreaterThan(wait);
  });

  it('starts the Web UI only after the search attributes exist, so `up --wait` waits for them (as docs/operating.md says)', async () => {
    const { services } = await compose();
    const ui = services['temporal-ui'] as { depends_on?: Record<string, { condition: string }> };
    expect(ui.depends_on?.['temporal-search-attributes']?.condition).toBe('service_completed_successfully');
    const operating = await readFile(path.join(projectRoot, 'docs', 'operating.md'), 'utf8');
    expect(operating).toContain('docker compose -f docker-compose.temporal.yml up -d --wait');
  });

  it('hides no failure behind `|| true`', async () => {
    const text = await readFile(path.join(projectRoot, 'docker-compose.temporal.yml'), 'utf8');
    expect(text).not.toMatch(/\|\|\s*true/);
  });

  it('runs the plain server image with admin tools of the same version, and a current Web UI', async () => {
    const { services } = await compose();
    const server = services.temporal?.image ?? '';
    expect(server).toMatch(/^temporalio\/server:1\.(3[2-9]|[4-9]\d)\./);
    for (const job of ['temporal-schema', 'temporal-search-attributes'])
      expect(services[job]?.image).toBe(server.replace('server', 'admin-tools'));
    expect(services['temporal-ui']?.image).toMatch(/^temporalio\/ui:2\.(5[4-9]|[6-9]\d)\./);
  });
});
