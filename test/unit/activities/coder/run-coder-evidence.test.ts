import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCoder, type RunCoderInput } from '../../../../activities/coder/run-coder.js';
import { createModelProvider } from '../../../../activities/models/router.js';
import type { ChatMessage, CompletionRequest } from '../../../../activities/models/types.js';
import { resolveWorkerSandbox, sandboxPolicyFor } from '../../../../activities/sandbox/index.js';
import { call, createTempRepo, writeScript, type TempRepo } from './fixtures.js';

// A real repository and real pytest in the worker's sandbox; only the model's turns are scripted.
const buggy =
  'import math\n\n\ndef add(a, b):\n    """Sum."""\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n';
const testFile = 'from calc.core import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n';

let t: TempRepo;
beforeEach(async () => {
  t = await createTempRepo({
    'calc/__init__.py': '',
    'calc/core.py': buggy,
    'tests/test_core.py': testFile,
    'tests/data/add.toml': 'a = 1\n',
  });
});
afterEach(() => t.cleanup());

const small = {
  label: 'coder/coder-small',
  capabilities: ['READ_REPOSITORY', 'WRITE_WORKTREE', 'RUN_TESTS'] as const,
  context: 'evidence' as const,
  tools: ['read_file', 'replace_in_file', 'run_tests', 'finish'],
};

async function coderInput(turns: Parameters<typeof call>[], seen: CompletionRequest[]): Promise<RunCoderInput> {
  await writeScript(t.base, { coder: turns.map((turn) => call(...turn)) });
  const scripted = await createModelProvider('scripted:script.json', { role: 'coder', startTurn: 0, cwd: t.base });
  return {
    worktreePath: t.repo,
    goal: 'calc.core.add(1, 2) returns -1; it must return the sum.',
    provider: { spec: scripted.spec, complete: (request) => (seen.push(request), scripted.complete(request)) },
    maxSteps: 10,
    previousAttempts: [],
    secretValues: [],
    artifactDir: t.artifacts,
    hostId: 'host-a',
    agent: { ...small, capabilities: [...small.capabilities] },
    tests: {
      command: ['python3', '-m', 'pytest', '-q'],
      testEnv: {},
      sandbox: sandboxPolicyFor(resolveWorkerSandbox({ workDir: t.artifacts })),
      timeoutMs: 120_000,
      secretValues: [],
      artifactDir: t.artifacts,
      hostId: 'host-a',
      maxRuns: 3,
    },
  };
}

const userText = (messages: ChatMessage[]) => messages.find((message) => message.role === 'user')?.content ?? '';

describe('runCoder, an evidence-first version with the small tool set', () => {
  it('opens with the base run: failing id, assertion, frame and the function whole; offers only its four tools', async () => {
    const seen: CompletionRequest[] = [];
    const input = await coderInput(
      [
        ['write_file', { path: 'calc/core.py', content: 'oops' }],
        [
          'replace_in_file',
          { path: 'calc/core.py', old: '    return a - b\n\n\ndef sub', new: '    return a + b\n\n\ndef sub' },
        ],
        ['finish', { summary: 'add adds' }],
      ],
      seen,
    );
    const result = await runCoder(input);
    expect(result.status).toBe('finished');
    expect(await readFile(path.join(t.repo, 'calc/core.py'), 'utf8')).toContain('return a + b');

    const first = userText(seen[0]?.messages ?? []);
    expect(first.startsWith('# Test evidence\n`python3 -m pytest -q` at the base, before any change: failed')).toBe(
      true,
    );
    expect(first).toContain('- tests/test_core.py::test_add');
    expect(first).toContain('E       assert -1 == 3');
    // A plain assert fails in the test's own frame; the goal's dotted name brings the function under test.
    expect(first).toContain('- tests/test_core.py:5');
    expect(first).toContain(
      '## calc/core.py lines 4-6: add (named by the goal)\n```\n4\tdef add(a, b):\n5\t    """Sum."""\n6\t    return a - b\n```',
    );
    expect(first).toContain('## tests/test_core.py lines 4-5: test_add (the failing test)');
    expect(first).not.toContain('# Repository files');
    expect(first).not.toContain('add.toml');
    expect(seen[0]?.tools?.map((tool) => tool.name)).toEqual(['read_file', 'replace_in_file', 'run_tests', 'finish']);

    // write_file is not one of its tools: refused at the tool, nothing written.
    const refusal = seen[1]?.messages.at(-1);
    expect(refusal?.content).toBe(
      'error: write_file is not one of your tools. Your tools are: read_file, replace_in_file, run_tests, finish.',
    );
    // The base run is the test node's runner: its log is an artifact of its own, and it is not an in-attempt run.
    expect(await readFile(path.join(t.artifacts, 'coder-tests', 'base', 'test-stdout.log'), 'utf8')).toContain(
      'assert -1 == 3',
    );
    expect(result.telemetry.inAttemptTestRuns ?? 0).toBe(0);
    expect(result.telemetry.refusedToolCalls).toBe(1);
  });

  it('keeps the prompt prefix byte for byte across turns (the server cache reuses it)', async () => {
    const seen: CompletionRequest[] = [];
    const input = await coderInput(
      [
        ['read_file', { path: 'calc/core.py' }],
        ['read_file', { path: 'tests/test_core.py' }],
        ['finish', { summary: 'nothing' }],
      ],
      seen,
    );
    await runCoder(input);
    expect(seen).toHaveLength(3);
    for (const [index, request] of seen.entries()) {
      if (index === 0) continue;
      const before = seen[index - 1]?.messages ?? [];
      expect(JSON.stringify(request.messages.slice(0, before.length))).toBe(JSON.stringify(before));
    }
  });

  it('fails before any model call when its version lists a tool that does not exist', async () => {
    const seen: CompletionRequest[] = [];
    const input = await coderInput([['finish', { summary: 'x' }]], seen);
    input.agent = { ...small, capabilities: [...small.capabilities], tools: ['read_file', 'replace', 'finish'] };
    await expect(runCoder(input)).rejects.toThrow(
      /coder\/coder-small lists tools that do not exist: replace; fix its "tools"/,
    );
    expect(seen).toHaveLength(0);
  });
});
