// The coder's sinks: what the provider is sent (tool replies with file contents) and the progress file it resumes from.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCoder } from '../../../../activities/coder/run-coder.js';
import { createScriptedProvider, parseScript } from '../../../../activities/models/scripted.js';
import type { ChatMessage, ModelProvider } from '../../../../activities/models/types.js';
import { call, createTempRepo, type TempRepo } from './fixtures.js';

const canary = 'coder-canary-5150';
let t: TempRepo;
beforeEach(async () => {
  t = await createTempRepo({ 'settings.py': `PASSWORD = "${canary}"\n` });
});
afterEach(() => t.cleanup());

describe('runCoder and secrets', () => {
  it('never sends a secret read from a file to the provider, and keeps it out of the summary and coder-progress.json', async () => {
    const parsed = parseScript({
      coder: [
        call('read_file', { path: 'settings.py' }),
        call('finish', { summary: `done, the password was ${canary}` }),
      ],
    });
    if (!parsed.success) throw new Error(parsed.error);
    const scripted = createScriptedProvider({ file: 'inline.json', script: parsed.data });
    const sent: ChatMessage[][] = [];
    const provider: ModelProvider = {
      ...scripted,
      complete: (request) => (sent.push(request.messages), scripted.complete(request)),
    };

    const result = await runCoder({
      worktreePath: t.repo,
      goal: 'g',
      provider,
      maxSteps: 5,
      previousAttempts: [],
      secretValues: [canary],
      artifactDir: t.artifacts,
      hostId: 'h',
    });

    expect(result.status).toBe('finished');
    expect(sent).toHaveLength(2);
    expect(JSON.stringify(sent[1])).toContain('[redacted]');
    expect(JSON.stringify(sent)).not.toContain(canary);
    expect(result.summary).not.toContain(canary);
    for (const file of await readdir(t.artifacts))
      expect(await readFile(path.join(t.artifacts, file), 'utf8')).not.toContain(canary);
  });
});
