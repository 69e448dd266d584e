import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTranscript, turnLimits } from '../../../../domain/trajectory/transcript-turns.js';
import { projectRoot } from '../../../../platform/paths.js';

const fixture = (name: string) => readFile(path.join(projectRoot, 'test', 'fixtures', 'trajectories', name), 'utf8');

describe('parseTranscript', () => {
  it('reads a recorded transcript as turns, each tool call paired with its reply by id, and lists the run_tests calls', async () => {
    const parsed = parseTranscript(await fixture('completed/a1-transcript.json'));
    if (!parsed.success) throw new Error(parsed.error);
    const { turns, testRuns, prompt } = parsed.data;
    expect(prompt).toContain('Fix add in calc.py');
    expect(turns.map((turn) => turn.calls.map((call) => call.name))).toEqual([
      ['read_file'],
      ['read_file'],
      ['replace_in_file'],
      ['run_tests'],
      ['replace_in_file'],
      ['run_tests'],
      ['finish'],
    ]);
    expect(turns[0]).toMatchObject({ index: 1, text: 'Reading the notes first.' });
    expect(turns[0]?.calls[0]).toMatchObject({ arguments: '{"path":"NOTES.md"}' });
    expect(turns[0]?.calls[0]?.reply).toContain('deploy token: [redacted]');
    expect(testRuns.map((run) => [run.turn, run.result.split(':')[0]])).toEqual([
      [4, 'tests failed'],
      [6, 'tests passed'],
    ]);
  });

  it('cuts a long reply and long arguments, saying how much was left out, and keeps a call whose reply never came', () => {
    const transcript = [
      { role: 'system', content: 'you are a coder' },
      { role: 'user', content: 'Fix it' },
      {
        role: 'assistant',
        content: 'writing',
        toolCalls: [
          { id: 'c1', name: 'write_file', arguments: { path: 'a.py', content: 'x'.repeat(5000) } },
          { id: 'c2', name: 'run_tests', arguments: {} },
        ],
      },
      { role: 'tool', toolCallId: 'c1', name: 'write_file', content: 'y'.repeat(5000) },
    ];
    const parsed = parseTranscript(JSON.stringify(transcript));
    if (!parsed.success) throw new Error(parsed.error);
    const [write, tests] = parsed.data.turns[0]?.calls ?? [];
    expect(write?.arguments.length).toBeLessThan(turnLimits.arguments + 40);
    expect(write?.arguments).toMatch(/… \(\d+ more characters\)$/);
    expect(write?.reply).toMatch(
      new RegExp(`^y{${turnLimits.reply}}\\n… \\(${5000 - turnLimits.reply} more characters\\)$`),
    );
    expect(tests?.reply).toBeUndefined();
    expect(parsed.data.testRuns).toEqual([{ turn: 1, arguments: '{}', result: '(no reply: the run stopped first)' }]);
  });

  it('says what is wrong with a transcript that is not JSON or not chat messages', () => {
    expect(parseTranscript('{"cut')).toMatchObject({
      success: false,
      error: expect.stringMatching(/^the transcript is not JSON/),
    });
    expect(parseTranscript('[{"role":"robot"}]')).toMatchObject({
      success: false,
      error: expect.stringMatching(/^the transcript is not a list of chat messages/),
    });
  });
});
