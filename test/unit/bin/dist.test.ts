// The bin runs the compiled CLI; CI builds dist/ first (npm test runs setup, which builds), so it must be current.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { distIsCurrent } from '../../../bin/dist-state.js';
import { projectRoot } from '../../../platform/paths.js';

describe('the built CLI', () => {
  it('is what bin/taskloop.js runs', async () => {
    const bin = await readFile(path.join(projectRoot, 'bin', 'taskloop.js'), 'utf8');
    expect(bin).toContain("new URL('../dist/cli/cli.js', import.meta.url)");
  });

  it('is current with the sources (run `npm run build` when this fails)', () => {
    expect(distIsCurrent(projectRoot)).toBe(true);
  });
});
