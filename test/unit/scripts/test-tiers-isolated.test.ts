// Every test tier's config gives its run a TASKLOOP_HOME and a default Temporal address of its own (issue 69's E1):
// loaded in a child whose environment points at a user's home and the demo's server, each config replaces both.
import { execa } from 'execa';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../platform/paths.js';

const configs = ['vitest.config.ts', 'vitest.real-model.config.ts'];

const load = `await import(process.argv[1]);
console.log(JSON.stringify({ home: process.env.TASKLOOP_HOME, address: process.env.TEMPORAL_ADDRESS }));`;

describe('the test tiers', () => {
  it.each(configs)('%s isolates its run from the user state', { timeout: 120_000 }, async (config) => {
    const userHome = path.join(projectRoot, '.taskloop');
    const { stdout } = await execa(
      'node',
      ['--import', 'tsx', '--input-type=module', '-e', load, pathToFileURL(path.join(projectRoot, config)).href],
      {
        cwd: projectRoot,
        env: { ...process.env, TASKLOOP_HOME: userHome, TEMPORAL_ADDRESS: '127.0.0.1:7233' },
        timeout: 60_000,
      },
    );
    const seen = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { home?: string; address?: string };
    expect(seen.home).toBeDefined();
    expect(seen.home).not.toBe(userHome);
    expect(seen.address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(seen.address).not.toBe('127.0.0.1:7233');
  });
});
