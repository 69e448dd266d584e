// What a user installs (`dependencies`) must carry everything the shipped code imports: a package only tests and
// benches use is a devDependency, and no shipped file may import one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../platform/paths.js';

const shipped = ['activities', 'bin', 'client', 'domain', 'platform', 'workers', 'workflows'];
const manifest = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

function importsOf(dir: string): { file: string; name: string }[] {
  return readdirSync(path.join(projectRoot, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .flatMap((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(/(?:from|import\()\s*'((?:@[\w.-]+\/)?[\w.-]+)[^']*'/g)].map((match) => ({
        file: path.relative(projectRoot, file),
        name: match[1]!,
      }));
    });
}

describe('package dependencies', () => {
  it('keeps the test-only packages out of dependencies', () => {
    for (const name of ['@temporalio/testing', 'simple-git']) {
      expect(manifest.dependencies[name], name).toBeUndefined();
      expect(manifest.devDependencies[name], name).toBeDefined();
    }
  });

  it('imports no devDependency from shipped code', () => {
    const found = shipped.flatMap(importsOf);
    expect(found.some(({ name }) => name === '@temporalio/client')).toBe(true);
    const devOnly = found.filter(({ name }) => manifest.devDependencies[name] !== undefined);
    expect(devOnly.map(({ file, name }) => `${file} imports ${name}`)).toEqual([]);
  });
});
