// The node-llama-cpp runtime's parts that need no model: how it reads a request, splits tool calls out of a reply,
// answers in the OpenAI shape, and where it is installed from. Its server with the real model is in the real-model
// tier (test/real-model/node-llama-server.test.ts).
import { describe, expect, it } from 'vitest';
import { completionBody } from '../../../../platform/local-model/node-llama/chat-http.js';
import { ChatRequestError, readChatRequest } from '../../../../platform/local-model/node-llama/chat-request.js';
import { binaryPackageFor, nodeLlamaRuntimeDir } from '../../../../platform/local-model/node-llama/runtime-pins.js';
import { nodeLlamaServerArgs } from '../../../../platform/local-model/node-llama/start.js';
import { splitToolCalls } from '../../../../platform/local-model/node-llama/tool-call-text.js';
import { chooseLocalRuntime } from '../../../../platform/local-model/runtime.js';
import type { Generation } from '../../../../platform/local-model/node-llama/chat-engine.js';

describe("the node-llama-cpp server's reading of a chat request", () => {
  it('reads what the worker sends: messages, tools, temperature, seed and the output limit', () => {
    const request = readChatRequest({
      model: 'qwen2.5-coder-0.5b',
      messages: [
        { role: 'system', content: 'You fix code.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"calc.py"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'def add(a, b): return a - b' },
      ],
      tools: [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } }],
      temperature: 0,
      seed: 7,
      max_tokens: 256,
    });
    expect(request.maxTokens).toBe(256);
    expect(request.temperature).toBe(0);
    expect(request.seed).toBe(7);
    expect(request.tools.map((tool) => tool.function.name)).toEqual(['read_file']);
    // The template gets the arguments as an object (Qwen's writes them with tojson) and null content as text.
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [{ type: 'function', function: { name: 'read_file', arguments: { path: 'calc.py' } } }],
    });
    expect(request.messages[2]?.tool_call_id).toBe('c1');
    expect(readChatRequest({ messages: [{ role: 'user', content: 'x' }], max_completion_tokens: 9 }).maxTokens).toBe(9);
  });

  it('refuses a bad request naming the field (a 400, as llama-server answers)', () => {
    const bad: [unknown, string][] = [
      [[], 'the body must be a JSON object'],
      [{ messages: [] }, 'messages must be a non-empty array'],
      [{ messages: [{ content: 'x' }] }, 'messages[0] must be an object with a role'],
      [
        { messages: [{ role: 'user', content: 'x' }], temperature: 5 },
        'temperature must be a number from 0 to 2, got 5',
      ],
      [{ messages: [{ role: 'user', content: 'x' }], tools: [{}] }, 'tools[0].function.name must be a string'],
      [{ messages: [{ role: 'user', content: 'x' }], stream: true }, 'stream: true is not served here'],
    ];
    for (const [body, message] of bad) {
      expect(() => readChatRequest(body)).toThrow(ChatRequestError);
      expect(() => readChatRequest(body)).toThrow(message);
    }
  });
});

describe('tool calls in the reply text', () => {
  it('takes each well-formed <tool_call> block as a call and keeps the rest as content', () => {
    const text =
      'I will read it.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "calc.py"}}\n</tool_call>\n' +
      '<tool_call>{"name": "run_tests", "arguments": {}}</tool_call>';
    expect(splitToolCalls(text)).toEqual({
      content: 'I will read it.',
      calls: [
        { name: 'read_file', arguments: '{"path":"calc.py"}' },
        { name: 'run_tests', arguments: '{}' },
      ],
    });
  });

  it('leaves a block that is not a call, and a fenced JSON call, as text for the coder to read', () => {
    const text =
      '```json\n{"name": "read_file", "arguments": {"path": "calc.py"}}\n```\n<tool_call>not json</tool_call>';
    expect(splitToolCalls(text)).toEqual({ content: text, calls: [] });
  });
});

const generation = (over: Partial<Generation> = {}): Generation => ({
  text: 'done',
  promptTokens: 100,
  cachedTokens: 60,
  completionTokens: 8,
  finish: 'stop',
  promptMs: 2000,
  generationMs: 4000,
  ...over,
});

describe('the reply in the OpenAI shape', () => {
  it('carries usage as the worker reads it, and llama-server-style timings', () => {
    const body = completionBody({ alias: 'qwen2.5-coder-0.5b', id: 3, generation: generation(), toolsOffered: false });
    expect(body.model).toBe('qwen2.5-coder-0.5b');
    expect(body.usage).toMatchObject({ prompt_tokens: 100, completion_tokens: 8, total_tokens: 108 });
    expect(body.choices[0]).toMatchObject({ message: { role: 'assistant', content: 'done' }, finish_reason: 'stop' });
    // 40 prompt tokens read (60 were cached) in 2 s; 8 generated in 4 s.
    expect(body.timings).toMatchObject({ prompt_n: 40, prompt_per_second: 20, predicted_per_second: 2, cache_n: 60 });
  });

  it('answers tool calls as tool_calls when tools were offered, and says when the output limit cut the reply', () => {
    const text = '<tool_call>{"name": "finish", "arguments": {"summary": "ok"}}</tool_call>';
    const withTools = completionBody({ alias: 'm', id: 1, generation: generation({ text }), toolsOffered: true });
    expect(withTools.choices[0]?.finish_reason).toBe('tool_calls');
    expect(withTools.choices[0]?.message).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'call_1_0', type: 'function', function: { name: 'finish', arguments: '{"summary":"ok"}' } }],
    });
    // Without tools offered the text is the reply as written.
    const noTools = completionBody({ alias: 'm', id: 1, generation: generation({ text }), toolsOffered: false });
    expect(noTools.choices[0]?.message.content).toBe(text);
    const cut = completionBody({
      alias: 'm',
      id: 2,
      generation: generation({ finish: 'length' }),
      toolsOffered: false,
    });
    expect(cut.choices[0]?.finish_reason).toBe('length');
  });
});

describe('the runtime and where it comes from', () => {
  it('is node-llama-cpp unless --runtime or TASKLOOP_LOCAL_RUNTIME names llama-server; another name is refused', () => {
    expect(chooseLocalRuntime({})).toBe('node-llama-cpp');
    expect(chooseLocalRuntime({ TASKLOOP_LOCAL_RUNTIME: 'llama-server' })).toBe('llama-server');
    expect(chooseLocalRuntime({ TASKLOOP_LOCAL_RUNTIME: 'llama-server' }, 'node-llama-cpp')).toBe('node-llama-cpp');
    expect(() => chooseLocalRuntime({}, 'vllm')).toThrow(
      '--runtime is "vllm"; use node-llama-cpp or llama-server (default node-llama-cpp)',
    );
  });

  it("installs into the model cache, one folder per pinned version, with only this platform's CPU binary", () => {
    expect(nodeLlamaRuntimeDir({ XDG_CACHE_HOME: '/c' })).toBe('/c/taskloop/local-model/node-llama-cpp-3.21.1');
    expect(binaryPackageFor('linux', 'x64')).toBe('@node-llama-cpp/linux-x64');
    expect(binaryPackageFor('darwin', 'arm64')).toBe('@node-llama-cpp/mac-arm64-metal');
    expect(binaryPackageFor('aix', 'ppc64')).toBeUndefined();
  });

  it('runs the server from the TypeScript source through tsx when taskloop runs from its sources', () => {
    const args = nodeLlamaServerArgs({
      runtimeDir: '/r',
      model: '/m.gguf',
      port: 8080,
      ctx: 8192,
      threads: 1,
      alias: 'a',
    });
    expect(args[0]).toBe('--import');
    expect(args[2]).toMatch(/platform\/local-model\/node-llama\/server-main\.ts$/);
    expect(args.slice(3)).toEqual([
      '--runtime',
      '/r',
      '--model',
      '/m.gguf',
      '--port',
      '8080',
      '--ctx',
      '8192',
      '--threads',
      '1',
      '--alias',
      'a',
    ]);
  });
});
