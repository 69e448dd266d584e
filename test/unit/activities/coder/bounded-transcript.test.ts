import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCoder } from '../../../../activities/coder/run-coder.js';
import { estimateUsage } from '../../../../activities/models/estimate-tokens.js';
import { createModelProvider } from '../../../../activities/models/router.js';
import type { ChatMessage, ModelProvider } from '../../../../activities/models/types.js';
import { resolveWorkerSandbox, sandboxPolicyFor } from '../../../../activities/sandbox/index.js';
import { call, createTempRepo, writeScript, type TempRepo } from './fixtures.js';

const bigFile = Array.from(
  { length: 900 },
  (_, i) => `VALUE_${i} = ${i}  # a constant the coder reads over and over again`,
).join('\n');

let t: TempRepo;
beforeEach(async () => {
  t = await createTempRepo({
    'calc.py': 'def add(a, b):\n    return a - b\n',
    'big.py': `${bigFile}\n`,
    'tests/test_calc.py': 'from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n',
  });
});
afterEach(() => t.cleanup());

describe('the bounded transcript', () => {
  it('keeps a 60-step attempt under the context budget, with the goal, the latest diff and the latest test run whole', async () => {
    const budget = 20_000;
    const turns = [call('run_tests', {}), call('replace_in_file', { path: 'calc.py', old: 'a - b', new: 'a + b' })];
    for (let step = turns.length; step < 59; step++) {
      if (step % 10 === 0)
        turns.push(call('write_file', { path: `notes/n${step}.py`, content: bigFile.slice(0, 6000) }));
      else turns.push(step % 7 === 0 ? call('git_diff', {}) : call('read_file', { path: 'big.py' }));
    }
    turns.push(call('finish', { summary: 'add adds' }));
    await writeScript(t.base, { coder: turns });
    const scripted = await createModelProvider('scripted:script.json', { role: 'coder', startTurn: 0, cwd: t.base });
    const requests: ChatMessage[][] = [];
    const provider: ModelProvider = {
      spec: scripted.spec,
      complete: (request) => (requests.push(request.messages), scripted.complete(request)),
    };
    const tests = {
      command: ['python', '-m', 'pytest', '-q'],
      testEnv: {},
      sandbox: sandboxPolicyFor(resolveWorkerSandbox({ workDir: t.artifacts })),
      timeoutMs: 60_000,
      secretValues: [],
      artifactDir: t.artifacts,
      hostId: 'h',
      maxRuns: 5,
    };

    const result = await runCoder({
      worktreePath: t.repo,
      goal: 'Fix add in calc.py',
      provider,
      maxSteps: 60,
      previousAttempts: [],
      secretValues: [],
      artifactDir: t.artifacts,
      hostId: 'h',
      tests,
      maxContextTokens: budget,
      // The script reads the same file again and again on purpose: this test is about the budget, not being stuck.
      noProgressLimits: { repeatedCalls: 100, idleTurns: 100, truncatedTurns: 100 },
    });

    expect(result).toMatchObject({ status: 'finished', turnsConsumed: 60 });
    expect(requests).toHaveLength(60);
    for (const request of requests)
      expect(estimateUsage(request, { content: '', toolCalls: [] }).inputTokens).toBeLessThanOrEqual(budget);
    const last = requests.at(-1) ?? [];
    expect(last[1].content).toContain('# Goal\nFix add in calc.py');
    const lastOf = (name: string) =>
      last.filter((message) => message.role === 'tool' && message.name === name).at(-1)?.content ?? '';
    expect(lastOf('run_tests')).toContain('- tests/test_calc.py::test_add');
    expect(lastOf('git_diff')).toContain('+    return a + b');
    expect(
      last.some((message) =>
        /^\[read_file output of \d+ characters shrunk: message \d+ of the transcript .+transcript/.test(
          message.content,
        ),
      ),
    ).toBe(true);
    // The transcript artifact keeps every output whole: the pointer leads somewhere.
    const transcript = JSON.parse(await readFile(result.transcript?.path ?? '', 'utf8')) as ChatMessage[];
    expect(
      transcript.filter((message) => message.role === 'tool' && message.content.includes('VALUE_860 = 860')).length,
    ).toBeGreaterThan(40);
  });
});
