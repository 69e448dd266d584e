import { describe, expect, it } from 'vitest';
import { readTextToolCalls } from '../../../domain/text-tool-calls.js';

const tools = ['read_file', 'replace_in_file', 'finish'];

describe('readTextToolCalls', () => {
  it('reads a bare JSON object naming an offered tool', () => {
    expect(readTextToolCalls('{"name": "read_file", "arguments": {"path": "calc.py"}}', tools)).toEqual([
      { name: 'read_file', arguments: { path: 'calc.py' } },
    ]);
  });

  it('reads fenced blocks, <tool_call> tags and the {function: {...}} shape with string arguments', () => {
    const fenced = 'I will read it.\n```json\n{"tool": "read_file", "args": {"path": "a.py"}}\n```';
    expect(readTextToolCalls(fenced, tools)).toEqual([{ name: 'read_file', arguments: { path: 'a.py' } }]);
    const tagged =
      '<tool_call>{"function": {"name": "finish", "arguments": "{\\"summary\\": \\"done\\"}"}}</tool_call>';
    expect(readTextToolCalls(tagged, tools)).toEqual([{ name: 'finish', arguments: { summary: 'done' } }]);
    // finish's summary sent bare (the 1.5B's); any other tool's bare string reads as no arguments.
    const bare = '```json\n{"name": "finish", "arguments": "Fixed the bug."}\n```';
    expect(readTextToolCalls(bare, tools)).toEqual([{ name: 'finish', arguments: { summary: 'Fixed the bug.' } }]);
    expect(readTextToolCalls('{"name": "read_file", "arguments": "calc.py"}', tools)).toEqual([
      { name: 'read_file', arguments: {} },
    ]);
  });

  it('reads JSON objects inside prose, several in order', () => {
    const text =
      'First {"name": "read_file", "arguments": {"path": "x.py"}} then {"name": "finish", "arguments": {"summary": "s {ok}"}}';
    expect(readTextToolCalls(text, tools).map((call) => call.name)).toEqual(['read_file', 'finish']);
  });

  it("reads a Python-style call with literal arguments (Gemma's tool_code)", () => {
    const text = '```tool_code\nreplace_in_file(path="calc.py", old="return a - b", new=\'return a + b\')\n```';
    expect(readTextToolCalls(text, tools)).toEqual([
      { name: 'replace_in_file', arguments: { path: 'calc.py', old: 'return a - b', new: 'return a + b' } },
    ]);
  });

  it('ignores prose, JSON naming no offered tool, and unknown names', () => {
    expect(readTextToolCalls('The fix is to change add() in calc.py.', tools)).toEqual([]);
    expect(readTextToolCalls('{"name": "rm_rf", "arguments": {}}', tools)).toEqual([]);
    expect(readTextToolCalls('{"answer": 42}', tools)).toEqual([]);
  });
});
