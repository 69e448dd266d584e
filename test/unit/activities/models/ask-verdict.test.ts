import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { askForVerdict } from '../../../../activities/models/ask-verdict.js';
import { createModelProvider } from '../../../../activities/models/router.js';

async function reviewer(turns: { content: string }[]) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
  await writeFile(path.join(dir, 'script.json'), JSON.stringify({ reviewer: turns }));
  return createModelProvider('scripted:script.json', { role: 'reviewer', cwd: dir });
}

describe('askForVerdict', () => {
  it('returns a valid verdict at the first ask', async () => {
    const provider = await reviewer([{ content: '{"verdict":"fail","findings":[{"file":"a.py","reason":"bad"}]}' }]);
    const reply = await askForVerdict({ provider, role: 'reviewer', question: 'diff' });
    expect(reply).toMatchObject({
      ok: true,
      verdict: { verdict: 'fail', findings: [{ file: 'a.py', reason: 'bad' }] },
      usage: { modelRequests: 1 },
    });
  });

  it('asks once more after a malformed verdict and accepts the corrected one', async () => {
    const provider = await reviewer([{ content: 'LGTM!' }, { content: '{"verdict":"pass"}' }]);
    expect(await askForVerdict({ provider, role: 'reviewer', question: 'diff' })).toMatchObject({
      ok: true,
      verdict: { verdict: 'pass' },
      usage: { modelRequests: 2 },
    });
  });

  it('gives a model problem, never a pass, after two malformed verdicts', async () => {
    const provider = await reviewer([
      { content: '{"verdict": pass}' },
      { content: 'pass' },
      { content: '{"verdict":"pass"}' },
    ]);
    const reply = await askForVerdict({ provider, role: 'reviewer', question: 'diff' });
    expect(reply).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^model problem: the reviewer gave no valid verdict after 2 asks/),
      usage: { modelRequests: 2 },
    });
  });
});
