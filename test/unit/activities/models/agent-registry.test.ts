import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRegistryFile, loadAgent } from '../../../../activities/models/agent-registry.js';

async function registryWith(content: unknown, files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  const file = path.join(dir, 'registry.json');
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('loadAgent', () => {
  it('reads the shipped registry: every role has a champion', async () => {
    for (const role of ['coder', 'reviewer', 'judge', 'skillWriter'] as const) {
      const { agent } = await loadAgent(role, { file: defaultRegistryFile });
      expect(agent.role).toBe(role);
      expect(agent.version).not.toBe('builtin');
    }
  });

  it("loads the champion's prompt file relative to the registry, so a promotion needs no code change", async () => {
    const file = await registryWith(
      { coder: { champion: 'c2', versions: { c1: {}, c2: { prompt: 'c2.md' } } } },
      { 'c2.md': 'You are coder two.' },
    );
    expect(await loadAgent('coder', { file })).toMatchObject({
      agent: { version: 'c2' },
      prompt: 'You are coder two.',
    });
    expect(await loadAgent('coder', { file, pinned: 'c1' })).toEqual({
      agent: {
        role: 'coder',
        version: 'c1',
        prompt: 'builtin',
        parameters: {},
        capabilities: ['READ_REPOSITORY', 'INVESTIGATE_WORKTREE', 'WRITE_WORKTREE', 'RUN_TESTS'],
      },
    });
  });

  it('uses the built-in version when there is no registry, and fails non-retryably on a broken one', async () => {
    expect((await loadAgent('coder', { file: '/nonexistent/registry.json' })).agent.version).toBe('builtin');
    await expect(loadAgent('coder', { file: await registryWith('{ nope') })).rejects.toMatchObject({
      type: 'InvalidAgentRegistry',
      nonRetryable: true,
    });
    await expect(
      loadAgent('coder', { file: await registryWith({ coder: { champion: 'x', versions: {} } }) }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('coder.champion'),
    });
  });
});
