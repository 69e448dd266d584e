// The HTTP face of the node-llama-cpp runtime: the part of llama-server's API taskloop uses. `POST
// /v1/chat/completions` (non-streaming, with `usage` and `timings`, tool calls read from `<tool_call>` blocks when
// tools were offered), `GET /v1/models`, `GET /health` (503 while the model loads), `GET /props` (`n_ctx`, where the
// worker reads the context window) and `GET /slots` (whether a request is running). One request runs at a time
// (llama-server's `--parallel 1`); a client that disconnects ends its generation at the next token.
import http from 'node:http';
import type { ChatEngine, Generation } from './chat-engine.js';
import { ChatRequestError, readChatRequest } from './chat-request.js';
import { splitToolCalls } from './tool-call-text.js';

const MAX_BODY_BYTES = 32 * 1024 * 1024;

function send(response: http.ServerResponse, status: number, body: unknown): void {
  if (response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** An error in the OpenAI shape (`{error: {code, message, type}}`), as llama-server sends them. */
const sendError = (response: http.ServerResponse, status: number, type: string, message: string) =>
  send(response, status, { error: { code: status, message, type } });

async function readBody(request: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new ChatRequestError(`the body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new ChatRequestError('the body is not valid JSON');
  }
}

/** The completion in the OpenAI shape, with llama-server's `timings`. */
export function completionBody(input: { alias: string; id: number; generation: Generation; toolsOffered: boolean }) {
  const { generation } = input;
  const { content, calls } = input.toolsOffered
    ? splitToolCalls(generation.text)
    : { content: generation.text, calls: [] };
  const toolCalls = calls.map((call, index) => ({
    id: `call_${input.id}_${index}`,
    type: 'function' as const,
    function: { name: call.name, arguments: call.arguments },
  }));
  const finish = calls.length > 0 ? 'tool_calls' : generation.finish === 'stop' ? 'stop' : 'length';
  const perSecond = (tokens: number, ms: number) => (ms > 0 ? (tokens * 1000) / ms : 0);
  const promptRead = generation.promptTokens - generation.cachedTokens;
  return {
    id: `chatcmpl-${input.id}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: input.alias,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }) },
        finish_reason: finish,
      },
    ],
    usage: {
      prompt_tokens: generation.promptTokens,
      completion_tokens: generation.completionTokens,
      total_tokens: generation.promptTokens + generation.completionTokens,
      prompt_tokens_details: { cached_tokens: generation.cachedTokens },
    },
    timings: {
      cache_n: generation.cachedTokens,
      prompt_n: promptRead,
      prompt_ms: generation.promptMs,
      prompt_per_second: perSecond(promptRead, generation.promptMs),
      predicted_n: generation.completionTokens,
      predicted_ms: generation.generationMs,
      predicted_per_second: perSecond(generation.completionTokens, generation.generationMs),
    },
  };
}

export interface ChatServerOptions {
  alias: string;
  /** Resolves once the model is loaded; until then /health answers 503 and completions wait. */
  engine: Promise<ChatEngine>;
  log: (line: string) => void;
}

/** The server (not yet listening). */
export function createChatServer(options: ChatServerOptions): http.Server {
  let loaded: ChatEngine | undefined;
  void options.engine.then((engine) => (loaded = engine));
  let queue: Promise<unknown> = Promise.resolve();
  let nextId = 1;

  const complete = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chat = readChatRequest(await readBody(request));
    const engine = await options.engine;
    const id = nextId++;
    // Aborted when the client goes away before the reply is sent (a cancelled task, a timeout).
    const gone = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) gone.abort();
    });
    const run = queue.then(async () => {
      if (gone.signal.aborted) return;
      const tokens = engine.promptTokens(chat);
      if (tokens.length >= engine.contextSize)
        return sendError(
          response,
          400,
          'exceed_context_size_error',
          `the request exceeds the available context size (${tokens.length} prompt tokens, n_ctx ${engine.contextSize}); try increasing the context size (--ctx)`,
        );
      const generation = await engine.generate(chat, tokens, gone.signal);
      const { timings, ...body } = completionBody({
        alias: options.alias,
        id,
        generation,
        toolsOffered: chat.tools.length > 0,
      });
      options.log(
        `request ${id}: ${generation.finish === 'aborted' ? 'cancelled (client gone), slot released' : generation.finish}; ` +
          `prompt ${generation.promptTokens} tokens (${timings.cache_n} cached, ${timings.prompt_per_second.toFixed(1)} t/s), ` +
          `generated ${generation.completionTokens} (${timings.predicted_per_second.toFixed(1)} t/s)`,
      );
      if (generation.finish !== 'aborted') send(response, 200, { ...body, timings });
    });
    queue = run.catch(() => undefined);
    await run;
  };

  const routes: Record<string, (request: http.IncomingMessage, response: http.ServerResponse) => unknown> = {
    'GET /health': (_, response) =>
      loaded ? send(response, 200, { status: 'ok' }) : sendError(response, 503, 'unavailable_error', 'Loading model'),
    'GET /v1/models': (_, response) =>
      send(response, 200, { object: 'list', data: [{ id: options.alias, object: 'model', owned_by: 'taskloop' }] }),
    'GET /props': (_, response) =>
      loaded
        ? send(response, 200, { n_ctx: loaded.contextSize, default_generation_settings: { n_ctx: loaded.contextSize } })
        : sendError(response, 503, 'unavailable_error', 'Loading model'),
    'GET /slots': (_, response) => {
      const slot = loaded?.slot ?? { processing: false, promptTokens: 0, decoded: 0 };
      send(response, 200, [
        {
          id: 0,
          is_processing: slot.processing,
          n_prompt_tokens: slot.promptTokens,
          next_token: [{ n_decoded: slot.decoded }],
        },
      ]);
    },
    'POST /v1/chat/completions': complete,
    'POST /chat/completions': complete,
  };

  return http.createServer((request, response) => {
    const route = routes[`${request.method} ${(request.url ?? '').split('?')[0]}`];
    if (!route)
      return sendError(response, 404, 'not_found_error', `${request.method} ${request.url} is not served here`);
    Promise.resolve(route(request, response)).catch((error: unknown) => {
      if (error instanceof ChatRequestError) return sendError(response, 400, 'invalid_request_error', error.message);
      options.log(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      sendError(response, 500, 'server_error', error instanceof Error ? error.message : String(error));
    });
  });
}
