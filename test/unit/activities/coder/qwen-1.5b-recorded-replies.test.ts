// The small-model coder (coder-small: four tools) against replies recorded from a real llama-server serving
// Qwen2.5-Coder-1.5B-Instruct (local:qwen2.5-coder-1.5b) on the demo task fix-add (issue 52): the model made the right
// edit at the example path its prompt shows (src/pkg/mod.py), and, told to create the file with write_file, called
// write_file, which its version does not offer, and was told it had called no tool.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCoder, type RunCoderInput } from '../../../../activities/coder/run-coder.js';
import { createModelProvider } from '../../../../activities/models/router.js';
import { chatReply, startLocalModelServer, type LocalModelServer } from '../models/support/local-model-server.js';
import { resolveWorkerSandbox, sandboxPolicyFor } from '../../../../activities/sandbox/index.js';
import { createTempRepo, type TempRepo } from './fixtures.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/model-replies');
const recorded = async (name: string) =>
  (JSON.parse(await readFile(path.join(fixtures, name), 'utf8')) as { reply: unknown }).reply;
const finish = { body: chatReply('', [{ name: 'finish', arguments: { summary: 'add adds' } }]) };

let server: LocalModelServer;
let t: TempRepo;
beforeEach(async () => {
  server = await startLocalModelServer();
  t = await createTempRepo({
    'calc.py': 'def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n',
    'stats.py': 'def spread(values):\n    return max(values) - min(values)\n',
    'tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n',
  });
});
afterEach(async () => {
  await server.close();
  await t.cleanup();
});

async function input(overrides: Partial<RunCoderInput> = {}): Promise<RunCoderInput> {
  const provider = await createModelProvider('openai:qwen2.5-coder-1.5b', {
    role: 'coder',
    cwd: '/',
    env: { OPENAI_BASE_URL: `${server.url}/v1`, TASKLOOP_MODEL_TIMEOUT_MS: '5000' },
    parameters: { maxTokens: 512 },
  });
  return {
    ...{ worktreePath: t.repo, goal: 'Fix calc.add: it subtracts instead of adding', provider, maxSteps: 4 },
    ...{ previousAttempts: [], secretValues: [], artifactDir: t.artifacts, hostId: 'h' },
    agent: {
      label: 'coder/coder-small',
      capabilities: ['READ_REPOSITORY', 'WRITE_WORKTREE', 'RUN_TESTS'],
      tools: ['read_file', 'replace_in_file', 'run_tests', 'finish'],
    },
    ...overrides,
  };
}

/** The task's tests for run_tests, and the coaching the task activity gives a model coder. */
const withTests = (): Partial<RunCoderInput> => ({
  tests: {
    command: ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
    testEnv: {},
    sandbox: sandboxPolicyFor(resolveWorkerSandbox({ workDir: t.artifacts })),
    timeoutMs: 120_000,
    secretValues: [],
    artifactDir: t.artifacts,
    hostId: 'h',
    maxRuns: 3,
  },
  coaching: { refuseTestEdits: true, refuseEmptyFinish: true },
});
const replace = (old: string, replacement: string) => ({
  body: chatReply('', [{ name: 'replace_in_file', arguments: { path: 'calc.py', old, new: replacement } }]),
});
const runTests = { body: chatReply('', [{ name: 'run_tests', arguments: {} }]) };

const answerAfter = (n: number) =>
  (server.requests[n]?.body.messages as { role: string; content: string }[]).at(-1)?.content ?? '';

describe('replies recorded from llama-server with Qwen2.5-Coder-1.5B (coder-small)', () => {
  it('makes an edit at a path that does not exist where old occurs once, and says so', async () => {
    // 'return a - b' occurs twice in calc.py in this repository: the edit must not guess between them.
    await writeFile(path.join(t.repo, 'calc.py'), 'def add(a, b):\n    return a - b\n');
    server.push({ body: await recorded('qwen2.5-coder-1.5b-example-path.json') }, finish);
    const result = await runCoder(await input());
    expect(answerAfter(1)).toBe(
      "note: 'src/pkg/mod.py' does not exist; old occurs once, in calc.py, so the edit was made there. replaced 1 occurrence in calc.py at line 2",
    );
    expect(await readFile(path.join(t.repo, 'calc.py'), 'utf8')).toBe('def add(a, b):\n    return a + b\n');
    expect(result).toMatchObject({ status: 'finished', changedFiles: ['calc.py'] });
  });

  it('says an edit sent again was made already, and where (the 1.5B repeated its first call)', async () => {
    await writeFile(path.join(t.repo, 'calc.py'), 'def add(a, b):\n    return a - b\n');
    const again = { body: await recorded('qwen2.5-coder-1.5b-example-path.json') };
    server.push(again, again, finish);
    await runCoder(await input());
    expect(answerAfter(2)).toBe(
      "note: nothing to change: 'src/pkg/mod.py' does not exist and old occurs in no file, but new is already in calc.py at line 2 (an earlier edit made it): run_tests to check it, then finish.",
    );
  });

  it('runs the finish of a reply whose edit was made already and whose tests pass (the 1.5B sent all three again)', async () => {
    await writeFile(path.join(t.repo, 'calc.py'), 'def add(a, b):\n    return a - b\n');
    server.push(
      { body: await recorded('qwen2.5-coder-1.5b-example-path.json') },
      { body: await recorded('qwen2.5-coder-1.5b-edit-again-test-finish.json') },
    );
    const result = await runCoder(await input(withTests()));
    expect(result).toMatchObject({ status: 'finished', changedFiles: ['calc.py'] });
    expect(result.summary).toContain('Fixed calc.add');
    expect(server.requests).toHaveLength(2);
  });

  it('changes nothing where old occurs more than once, and names the places', async () => {
    server.push({ body: await recorded('qwen2.5-coder-1.5b-example-path.json') }, finish);
    const result = await runCoder(await input());
    expect(answerAfter(1)).toBe(
      "error: 'src/pkg/mod.py' does not exist; nothing was changed. old occurs in calc.py (lines 2, 6): call replace_in_file with one of those paths.",
    );
    expect(await readFile(path.join(t.repo, 'calc.py'), 'utf8')).toContain('return a - b');
    expect(result.changedFiles).toEqual([]);
  });

  it('answers a text call of a tool the version does not offer with the tools it does', async () => {
    server.push({ body: await recorded('qwen2.5-coder-1.5b-write-file-not-offered.json') }, finish);
    await runCoder(await input());
    expect(answerAfter(1)).toMatch(
      /^There is no tool named 'write_file': nothing was run\. The tools are: read_file, replace_in_file, run_tests, finish\./,
    );
  });

  it('does not run a finish that follows a failed call in the same reply', async () => {
    await writeFile(
      path.join(t.repo, 'tests/test_calc.py'),
      'from calc import mean\n\n\ndef test_mean():\n    assert mean([1, 2, 3]) == 2\n',
    );
    await writeFile(path.join(t.repo, 'calc.py'), 'def mean(values):\n    return sum(values) / (len(values) + 1)\n');
    // Then two finishes: the first, with nothing changed, is refused (once).
    server.push({ body: await recorded('qwen2.5-coder-1.5b-edit-test-finish.json') }, finish, finish);
    const result = await runCoder(await input(withTests()));
    const answers = (server.requests[1]?.body.messages as { role: string; content: string }[]).slice(-3);
    // The edit named the test file only (where old is): refused; the tests still ran; finish was not run.
    expect(answers[0]?.content).toBe(
      "error: 'src/pkg/mod.py' does not exist; nothing was changed. old occurs only in tests/test_calc.py (line 5), a test file this task does not allow you to change: the tests are right; change the code under test so that they pass.",
    );
    expect(answers[1]?.content).toMatch(/^tests failed: 1 total, 0 passed, 1 failed/);
    expect(answers[2]?.content).toMatch(/^error: finish was not run: a call before it in this reply failed/);
    expect(result.status).toBe('finished');
    expect(server.requests).toHaveLength(3);
  });

  it('refuses once a finish after an edit no passing test run has checked, and lets it through after one', async () => {
    server.push(
      replace('def add(a, b):\n    return a - b', 'def add(a, b):\n    return a + b'),
      finish,
      runTests,
      finish,
    );
    const result = await runCoder(await input(withTests()));
    expect(answerAfter(2)).toMatch(/^error: finish refused: the tests have not run since you changed the code/);
    expect(answerAfter(3)).toMatch(/^tests passed: 1 total, 1 passed/);
    expect(result).toMatchObject({ status: 'finished', changedFiles: ['calc.py'] });
    expect(server.requests).toHaveLength(4);
  });

  it('refuses a finish after a failing run of the edit, once: the second finish ends the run', async () => {
    server.push(
      replace('def add(a, b):\n    return a - b', 'def add(a, b):\n    return a * b'),
      runTests,
      finish,
      finish,
    );
    const result = await runCoder(await input(withTests()));
    expect(answerAfter(3)).toMatch(
      /^error: finish refused: the last test run after your edit did not pass \(failed: 0 of 1 passed\)/,
    );
    expect(result.status).toBe('finished');
    expect(server.requests).toHaveLength(4);
  });

  it('says what an edit broke compared with the base, and refuses a run with nothing changed since a failing one', async () => {
    // fix-median, candidate 2: the edit fixed the even case the base failed on (line 7) and broke the odd one (line 6);
    // the 1.5B then re-ran the failing tests three times without an edit.
    await writeFile(
      path.join(t.repo, 'calc.py'),
      'def median(values):\n    ordered = sorted(values)\n    return ordered[len(ordered) // 2]\n',
    );
    await writeFile(
      path.join(t.repo, 'tests/test_calc.py'),
      'from calc import median\n\n\ndef test_median():\n    assert median([3, 1, 2]) == 2\n    assert median([1, 2]) == 1.5\n',
    );
    const again = { body: await recorded('qwen2.5-coder-1.5b-run-tests-again.json') };
    server.push({ body: await recorded('qwen2.5-coder-1.5b-median-even-case.json') }, again, again, finish, finish);
    const agent = { ...(await input()).agent!, context: 'evidence' as const };
    const result = await runCoder(await input({ ...withTests(), agent, goal: 'Fix calc.median', maxSteps: 5 }));
    expect(answerAfter(2)).toMatch(/^tests failed: 1 total, 0 passed, 1 failed/);
    expect(answerAfter(2)).toContain(
      'compared with the base (before any change):\n- tests/test_calc.py::test_median now fails at tests/test_calc.py:5 (`assert median([3, 1, 2]) == 2`), a line the tests got past before your change (at the base it failed later, at tests/test_calc.py:6 (`assert median([1, 2]) == 1.5`)): the code must make both hold.',
    );
    expect(answerAfter(3)).toBe(
      'note: run_tests not run (no run spent): nothing changed since the last run of these tests, which failed: 0 of 1 passed; it would fail the same way. Read that failure, change the code with replace_in_file so that the failing assertion holds, then run_tests again.',
    );
    expect(answerAfter(4)).toMatch(
      /^error: finish refused: the last test run after your edit did not pass \(failed: 0 of 1 passed\), so the change does not work yet\. Fix the code/,
    );
    expect(result.status).toBe('finished');
    expect(result.telemetry.inAttemptTestRuns).toBe(1);
  });

  it('asks again with sampling varied after a reply sent before word for word', async () => {
    await writeFile(path.join(t.repo, 'calc.py'), 'def add(a, b):\n    return a - b\n');
    const again = { body: await recorded('qwen2.5-coder-1.5b-example-path.json') };
    server.push(again, again, finish);
    await runCoder(await input());
    const sampling = server.requests.map(({ body }) => [body.temperature, body.seed]);
    // The version's temperature 0 (no seed) until a reply repeats; then 0.8 with the step as seed.
    expect(sampling).toEqual([
      [undefined, undefined],
      [undefined, undefined],
      [0.8, 3],
    ]);
  });

  it('lets the tests decide when the model is stuck after a change: they pass, so the run finished', async () => {
    await writeFile(path.join(t.repo, 'calc.py'), 'def add(a, b):\n    return a - b\n');
    const again = { body: await recorded('qwen2.5-coder-1.5b-example-path.json') };
    server.push(again, again, again);
    const result = await runCoder(await input(withTests()));
    expect(result).toMatchObject({ status: 'finished', changedFiles: ['calc.py'] });
    expect(result.summary).toBe(
      "The model stopped without calling finish (stuck); its change passes the task's tests, run by taskloop at the end.",
    );
    expect(result.telemetry.inAttemptTestRuns).toBe(1);
    const transcript = JSON.parse(await readFile(result.transcript!.path, 'utf8')) as { content: string }[];
    expect(transcript.at(-1)?.content).toMatch(
      /^taskloop ran the tests on the change: tests passed: 1 total, 1 passed/,
    );
  });

  it('keeps CoderStuck when the tests fail on the change the stuck model made', async () => {
    await writeFile(path.join(t.repo, 'calc.py'), 'def add(a, b):\n    return a - b\n');
    const wrong = replace('def add(a, b):\n    return a - b', 'def add(a, b):\n    return a * b');
    const same = { body: chatReply('', [{ name: 'read_file', arguments: { path: 'calc.py' } }]) };
    server.push(wrong, same, same, same);
    const result = await runCoder(await input(withTests()));
    expect(result).toMatchObject({ status: 'model_error', cause: { kind: 'CoderStuck' } });
    expect(result.telemetry.inAttemptTestRuns).toBe(1);
  });

  it('ends at max steps as before when nothing was changed (no test run)', async () => {
    const read = { body: chatReply('', [{ name: 'read_file', arguments: { path: 'calc.py', start_line: 1 } }]) };
    const other = { body: chatReply('', [{ name: 'read_file', arguments: { path: 'stats.py' } }]) };
    server.push(read, other, read, other);
    const result = await runCoder(await input(withTests()));
    expect(result).toMatchObject({ status: 'max_steps', changedFiles: [] });
    expect(result.telemetry.inAttemptTestRuns ?? 0).toBe(0);
  });

  it('runs a call once per reply and at most five calls of one reply (the 1.5B wrote one plan seven times)', async () => {
    await writeFile(path.join(t.repo, 'calc.py'), 'def mean(values):\n    return sum(values) / (len(values) + 1)\n');
    server.push({ body: await recorded('qwen2.5-coder-1.5b-same-plan-seven-times.json') }, finish, finish);
    const result = await runCoder(await input(withTests()));
    const answers = (server.requests[1]?.body.messages as { role: string; content: string }[])
      .filter((message) => message.role === 'tool')
      .map((message) => message.content.split('\n')[0]);
    expect(answers).toHaveLength(21);
    expect(answers.slice(3)).toEqual(
      Array(18).fill('error: not run: the same call (tool and arguments) came earlier in this reply.'),
    );
    expect(result.telemetry.inAttemptTestRuns).toBe(1);
  });

  it('runs at most five distinct calls of one reply', async () => {
    const reads = [1, 2, 3, 4, 5, 6].map((line) => ({
      name: 'read_file',
      arguments: { path: 'calc.py', start_line: line },
    }));
    server.push({ body: chatReply('', reads) }, finish);
    await runCoder(await input());
    const answers = (server.requests[1]?.body.messages as { role: string; content: string }[]).filter(
      (message) => message.role === 'tool',
    );
    expect(answers.slice(0, 5).every((answer) => !answer.content.startsWith('error: not run'))).toBe(true);
    expect(answers[5]?.content).toBe('error: not run: at most 5 calls of one reply are run; make one call a reply.');
  });

  it('reads a call whose docstring quotes were written into the JSON unescaped, and makes the edit', async () => {
    await writeFile(path.join(t.repo, 'calc.py'), 'def mul(a, b):\n    return a * b\n');
    server.push({ body: await recorded('qwen2.5-coder-1.5b-docstring-quotes.json') }, finish);
    const result = await runCoder(await input());
    expect(await readFile(path.join(t.repo, 'calc.py'), 'utf8')).toBe(
      'def mul(a, b):\n    """Document calc.mul with a docstring."""\n    return a * b\n',
    );
    expect(result.changedFiles).toEqual(['calc.py']);
  });

  it('a version whose calls travel as text (coder-small-text) sends no tool list, and its text call is run', async () => {
    // Both replies were recorded from the same two messages at temperature 0: with the tools array the 1.5B read the
    // example path; without it, it wrote the fix.
    const withTools = (await recorded('qwen2.5-coder-1.5b-tools-block-mean.json')) as {
      choices: { message: { content: string } }[];
    };
    expect(withTools.choices[0]?.message.content).toContain('"read_file"');
    await writeFile(path.join(t.repo, 'calc.py'), 'def mean(values):\n    return sum(values) / (len(values) + 1)\n');
    server.push({ body: await recorded('qwen2.5-coder-1.5b-text-mode-mean.json') }, finish);
    const base = await input();
    const systemPrompt = await readFile(path.join(fixtures, '../../../agents/prompts/coder-small.md'), 'utf8');
    const result = await runCoder({ ...base, systemPrompt, agent: { ...base.agent!, toolCalls: 'text' } });
    expect(server.requests.map((request) => 'tools' in request.body)).toEqual([false, false]);
    expect(await readFile(path.join(t.repo, 'calc.py'), 'utf8')).toBe(
      'def mean(values):\n    return sum(values) / len(values)\n',
    );
    expect(result.changedFiles).toEqual(['calc.py']);
    // The prompt still names the four tools and the JSON form of a call.
    const system = (server.requests[0]?.body.messages as { role: string; content: string }[])[0]?.content ?? '';
    expect(system).toContain('replace_in_file(path, old, new)');
    expect(system).toContain('```json');
  });

  it('a version with native calls (coder-small) sends its four tools with every request', async () => {
    server.push(finish);
    await runCoder(await input({ maxSteps: 1 }));
    const tools = server.requests[0]?.body.tools as { function: { name: string } }[];
    expect(tools.map((tool) => tool.function.name)).toEqual(['read_file', 'replace_in_file', 'run_tests', 'finish']);
  });

  it('reads a call with raw tabs in its JSON strings, and takes read_file numbers off all lines but a bare first', async () => {
    const median = 'def median(values):\n    ordered = sorted(values)\n    return ordered[len(ordered) // 2]\n';
    await writeFile(path.join(t.repo, 'calc.py'), median);
    server.push({ body: await recorded('qwen2.5-coder-1.5b-numbered-lines-raw-tabs.json') }, finish);
    const result = await runCoder(await input());
    expect(answerAfter(1)).toMatch(
      /^note: 'src\/pkg\/mod.py' does not exist; old occurs once, in calc.py, so the edit was made there/,
    );
    expect(answerAfter(1)).toContain('the read_file line numbers');
    expect(await readFile(path.join(t.repo, 'calc.py'), 'utf8')).toBe(
      median.replace('ordered[len(ordered) // 2]', 'ordered[int(len(ordered) // 2)]'),
    );
    expect(result.changedFiles).toEqual(['calc.py']);
  });

  it('does not add the lines of an edit again when it is sent again (new holds old: three copies were stacked)', async () => {
    // more-itertools-last-reversed-none, candidate 2: lines added after `def last(...)`, at the example path, thrice.
    const more = 'def last(iterable, default=_marker):\n    return deque(iterable, maxlen=1)[-1]\n';
    await mkdir(path.join(t.repo, 'more_itertools'), { recursive: true });
    await writeFile(path.join(t.repo, 'more_itertools/more.py'), more);
    const again = { body: await recorded('qwen2.5-coder-1.5b-insert-after-old.json') };
    server.push(again, again, finish);
    const result = await runCoder(await input());
    const added = [
      '    try:',
      '        if isinstance(iterable, Sequence):',
      '            return iterable[-1]',
      "        if hasattr(iterable, '__reversed__'):",
      '            return next(reversed(iterable))',
      '        return deque(iterable, maxlen=1)[-1]',
    ].join('\n');
    expect(answerAfter(1)).toBe(
      "note: 'src/pkg/mod.py' does not exist; old occurs once, in more_itertools/more.py, so the edit was made there. replaced 1 occurrence in more_itertools/more.py at line 1",
    );
    expect(answerAfter(2)).toBe(
      "note: 'src/pkg/mod.py' does not exist; old occurs once, in more_itertools/more.py, so the edit was taken there: note: nothing to change: more_itertools/more.py already reads as new at line 1 (an earlier edit made it): run_tests to check it, then finish.",
    );
    expect(await readFile(path.join(t.repo, 'more_itertools/more.py'), 'utf8')).toBe(
      more.replace('\n', `\n${added}\n`),
    );
    expect(result).toMatchObject({ status: 'finished', changedFiles: ['more_itertools/more.py'] });
  });

  describe('an edit whose old occurs in several places (boltons-barrellist-insert-front, candidate 1)', () => {
    // BarrelList as boltons has it, cut down: `self._translate_index(index)` in insert and in pop; the test fails in
    // insert, so the evidence-first opening shows insert (the traceback) and the failing test.
    const listutils = [
      'class BarrelList:',
      '    def __init__(self, items=()):',
      '        self.items = list(items)',
      '',
      '    def _translate_index(self, index):',
      '        if index < 0:',
      '            index += len(self.items)',
      '        return index if 0 <= index <= len(self.items) else None',
      '',
      '    def insert(self, index, item):',
      '        rel_idx = self._translate_index(index)',
      '        if rel_idx is None:',
      '            raise IndexError()',
      '        self.items.insert(rel_idx, item)',
      '',
      '    def pop(self, index=-1):',
      '        rel_idx = self._translate_index(index)',
      '        if rel_idx is None:',
      '            raise IndexError()',
      '        return self.items.pop(rel_idx)',
      '',
    ].join('\n');
    const run = async (goal: string) => {
      await mkdir(path.join(t.repo, 'boltons'), { recursive: true });
      await writeFile(path.join(t.repo, 'boltons/listutils.py'), listutils);
      await writeFile(
        path.join(t.repo, 'tests/test_listutils.py'),
        "from boltons.listutils import BarrelList\n\n\ndef test_insert_before_start():\n    bl = BarrelList(range(3))\n    bl.insert(-10, 'x')\n    assert bl.items[0] == 'x'\n",
      );
      server.push({ body: await recorded('qwen2.5-coder-1.5b-old-in-five-places.json') }, finish, finish);
      const agent = { ...(await input()).agent!, context: 'evidence' as const };
      const result = await runCoder(await input({ ...withTests(), agent, goal, maxSteps: 3 }));
      return { result, file: await readFile(path.join(t.repo, 'boltons/listutils.py'), 'utf8') };
    };

    it('makes it in the one place the evidence showed, and says so', async () => {
      const { result, file } = await run(
        'Fix inserting far before the start: it raises IndexError instead of putting the item first.',
      );
      expect(answerAfter(1)).toBe(
        'note: old occurs 2 times in boltons/listutils.py (lines 11, 17); one of them is in insert (lines 10-14), the code the test evidence shows, so the edit was made there. replaced 1 occurrence in boltons/listutils.py at line 11',
      );
      expect(file).toBe(listutils.replace('self._translate_index(index)', 'self._translate_index(index + 1)'));
      expect(file).toContain('    def pop(self, index=-1):\n        rel_idx = self._translate_index(index)\n');
      expect(result.changedFiles).toEqual(['boltons/listutils.py']);
    });

    it('changes nothing when the code shown holds it twice (the goal names the whole class)', async () => {
      const { result, file } = await run('Fix BarrelList: inserting far before the start raises IndexError.');
      expect(answerAfter(1)).toMatch(
        /^error: 'old' occurs 2 times in boltons\/listutils.py \(lines 11, 17\); it must occur exactly once\./,
      );
      expect(file).toBe(listutils);
      expect(result.changedFiles).toEqual([]);
    });
  });

  describe('an old copied from the test evidence instead of the code (boltons-indexedset-index)', () => {
    const setutils = [
      'class IndexedSet:',
      '    def __init__(self, items):',
      '        self.items = list(items)',
      '',
      '    def _get_apparent_index(self, index):',
      '        return index - 3',
      '',
      '    def index(self, val):',
      '        return self._get_apparent_index(self.items.index(val))',
      '',
    ].join('\n');
    const goal = 'boltons.setutils.IndexedSet.index() gives wrong positions: IndexedSet(range(10)).index(7) is 4.';
    const setUp = async (test: string) => {
      await mkdir(path.join(t.repo, 'boltons'), { recursive: true });
      await writeFile(path.join(t.repo, 'boltons/setutils.py'), setutils);
      await writeFile(path.join(t.repo, 'tests/test_setutils.py'), test);
      await rm(path.join(t.repo, 'tests/test_calc.py'));
    };
    const run = async () => {
      const agent = { ...(await input()).agent!, context: 'evidence' as const };
      const result = await runCoder(await input({ ...withTests(), agent, goal, maxSteps: 2 }));
      return { result, file: await readFile(path.join(t.repo, 'boltons/setutils.py'), 'utf8') };
    };

    it("says old is pytest's E line, not code, and repeats the code the evidence showed", async () => {
      await setUp(
        'from boltons.setutils import IndexedSet\n\n\ndef test_index():\n    assert IndexedSet(range(10)).index(7) == 7\n',
      );
      server.push({ body: await recorded('qwen2.5-coder-1.5b-old-from-test-output.json') }, finish, finish);
      const { result, file } = await run();
      expect(answerAfter(1)).toBe(
        [
          "error: 'old' was not found in boltons/setutils.py; nothing was changed. old is text of the test output (pytest's E lines in the evidence), not code of boltons/setutils.py: the tests are right, and old must be lines of the code under test. The code under test shown to you: boltons/setutils.py: index (lines 8-9), _get_apparent_index (lines 5-6). Copy old from there (without the line numbers) and put the corrected code in new.",
          '---',
          '8\t    def index(self, val):',
          '9\t        return self._get_apparent_index(self.items.index(val))',
          '---',
          '5\t    def _get_apparent_index(self, index):',
          '6\t        return index - 3',
        ].join('\n'),
      );
      expect(file).toBe(setutils);
      expect(result.changedFiles).toEqual([]);
    });

    it('says old is a line of the test file when it was copied from there', async () => {
      await setUp(
        'from boltons.setutils import IndexedSet\n\n\ndef test_index():\n    iset = IndexedSet(range(10))\n    assert iset.index(7) == 7\n',
      );
      const copied = {
        body: chatReply('', [
          {
            name: 'replace_in_file',
            arguments: {
              path: 'boltons/setutils.py',
              old: 'assert iset.index(7) == 7',
              new: 'assert iset.index(7) == 4',
            },
          },
        ]),
      };
      server.push(copied, finish, finish);
      const { file } = await run();
      expect(answerAfter(1)).toMatch(
        /^error: 'old' was not found in boltons\/setutils.py; nothing was changed. old is text of the test file tests\/test_setutils.py \(line 6\), not code of boltons\/setutils.py: the tests are right/,
      );
      expect(file).toBe(setutils);
    });
  });

  describe('an edit, a run_tests with a node id as k and a bare finish in one reply (boltons-multireplace-empty)', () => {
    const strutils = [
      'class MultiReplace:',
      '    def __init__(self, sub_map):',
      '        self.group_map = dict(sub_map)',
      '',
      '    def _get_value(self, match):',
      '        return self.group_map[match.lastgroup]',
      '',
    ].join('\n');
    const run = async (...replies: string[]) => {
      await rm(path.join(t.repo, 'tests/test_calc.py'));
      await mkdir(path.join(t.repo, 'boltons'), { recursive: true });
      await writeFile(path.join(t.repo, 'boltons/strutils.py'), strutils);
      await writeFile(
        path.join(t.repo, 'tests/test_strutils.py'),
        'import re\nfrom boltons.strutils import MultiReplace\n\n\ndef test_multi_replace_empty_mapping():\n    match = re.match(r"foo", "foo")\n    assert MultiReplace({})._get_value(match) == "foo"\n\n\ndef test_other():\n    assert True\n',
      );
      for (const reply of replies) server.push({ body: await recorded(reply) });
      server.push(finish);
      const agent = { ...(await input()).agent!, context: 'evidence' as const };
      const result = await runCoder(
        await input({ ...withTests(), agent, goal: 'MultiReplace({}) raises KeyError: None', maxSteps: 3 }),
      );
      return { result, file: await readFile(path.join(t.repo, 'boltons/strutils.py'), 'utf8') };
    };
    const toolAnswers = async (transcript: string) =>
      (JSON.parse(await readFile(transcript, 'utf8')) as { role: string; content: string }[])
        .filter((message) => message.role === 'tool')
        .map((message) => message.content);
    const fixed = strutils.replace('group_map[match.lastgroup]', 'group_map.get(match.lastgroup, match.group())');

    it("runs the node id's test by name and the bare finish as its summary: the run ends on the reply", async () => {
      const { result, file } = await run(
        'qwen2.5-coder-1.5b-multireplace-edit.json',
        'qwen2.5-coder-1.5b-multireplace-k-node-id.json',
      );
      const answers = await toolAnswers(result.transcript!.path);
      expect(answers.slice(1)).toEqual([
        expect.stringMatching(/^tests passed: 1 total, 1 passed, 0 failed/),
        'finished',
      ]);
      expect(result.summary).toMatch(/^Fixed the bug in boltons.strutils: MultiReplace\(\{\}\)/);
      expect(server.requests).toHaveLength(2);
      expect(file).toBe(fixed);
    });

    it('answers the edit sent again as made already, so the test run and the finish after it run', async () => {
      const { result, file } = await run(
        'qwen2.5-coder-1.5b-multireplace-edit.json',
        'qwen2.5-coder-1.5b-multireplace-all-again.json',
      );
      const answers = await toolAnswers(result.transcript!.path);
      expect(answers.slice(1)).toEqual([
        'note: nothing to change: old is no longer in boltons/strutils.py, and it already reads as new at line 6 (an earlier edit made it): run_tests to check it, then finish.',
        expect.stringMatching(/^tests passed: 1 total, 1 passed, 0 failed/),
        'finished',
      ]);
      expect(result.summary).toMatch(/^Fixed the bug/);
      expect(file).toBe(fixed);
    });
  });
});
