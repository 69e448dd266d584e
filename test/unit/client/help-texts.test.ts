import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../platform/paths.js';
import { runTaskloop } from '../../support/cli.js';
import { searchAttributeCliPairs } from '../../../workflows/search-attributes.js';

describe('what the help texts promise', () => {
  it('help --help prints the overview and exits 0', async () => {
    const result = await runTaskloop(['help', '--help']);
    expect(result.exitCode, result.all).toBe(0);
    expect(result.stdout).toContain('Usage: taskloop');
  });

  it('run --help names every coder form, local: included', async () => {
    const { stdout } = await runTaskloop(['run', '--help']);
    for (const form of ['openai:<model>', 'anthropic:<model>', 'local:<model>', 'scripted:<file>'])
      expect(stdout).toContain(form);
  });

  it("worker --help and operating.md's worker settings name TASKLOOP_HOME", async () => {
    const { stdout } = await runTaskloop(['worker', '--help']);
    expect(stdout).toContain('TASKLOOP_HOME');
    const operating = await readFile(path.join(projectRoot, 'docs', 'operating.md'), 'utf8');
    const settings = operating.slice(operating.indexOf('Worker settings:'), operating.indexOf('## In the Web UI'));
    expect(settings).toContain('`TASKLOOP_HOME`');
  });

  it('server --help names every search attribute the server is started with', async () => {
    const { stdout } = await runTaskloop(['server', '--help']);
    const named = stdout.replace(/\s+/g, ' ');
    for (const { name } of searchAttributeCliPairs()) expect(named).toContain(name);
  });
});
