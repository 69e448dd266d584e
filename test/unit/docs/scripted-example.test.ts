// The scripted model file shown in docs/models.md is one a worker loads and replays as the page says.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadScript } from '../../../activities/models/script-file.js';
import { createScriptedProvider } from '../../../activities/models/scripted.js';
import { documentedBlock } from '../../support/documented-commands.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the scripted model file of docs/models.md', () => {
  it('loads, and replays its coder turns in order: the edit, then finish', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-docs-'));
    const file = path.join(dir, 'turns.json');
    await writeFile(file, await documentedBlock('docs/models.md', 'scripted-turns-example'));
    const provider = createScriptedProvider({ file, script: await loadScript(file) });
    const messages = [{ role: 'user' as const, content: 'fix add' }];
    const edit = await provider.complete({ role: 'coder', messages, tools: [] });
    expect(edit.content).toBe('add subtracts; it must add.');
    expect(edit.toolCalls.map(({ name, arguments: args }) => ({ name, args }))).toEqual([
      { name: 'replace_in_file', args: { path: 'calc.py', old: 'return a - b', new: 'return a + b' } },
    ]);
    const finish = await provider.complete({ role: 'coder', messages, tools: [] });
    expect(finish.toolCalls.map((call) => call.name)).toEqual(['finish']);
    expect(provider.consumed('coder')).toBe(2);
  });
});
