// A local HTTP server (127.0.0.1 only) that answers model requests from a queue of replies, for provider tests.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as it is (for malformed bodies). */
  body: unknown;
  /** Wait this long before answering (for timeouts). */
  delayMs?: number;
  /** Only for a request to this path (e.g. `/props`); a reply without one answers the next model request. */
  path?: string;
}

// Servers probed for their context window; unanswered probes get a 404 and leave the queue alone.
const probePaths = new Set(['/props', '/api/show']);

export interface SeenRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  at: number;
  /** When the client closed the connection before the reply was sent (an aborted request). */
  abortedAt?: number;
}

export interface LocalModelServer {
  url: string;
  /** Model requests, in order. */
  requests: SeenRequest[];
  /** Context-window probes (`/props`, `/api/show`), kept apart so model requests count as before. */
  probes: SeenRequest[];
  /** Adds replies to the end of the queue. */
  push(...replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

/** Starts a server (on `port`, or a free one); a request with no reply left gets a 599 so the test sees it instead of hanging. */
export async function startLocalModelServer(replies: ScriptedReply[] = [], port = 0): Promise<LocalModelServer> {
  const queue = [...replies];
  const requests: SeenRequest[] = [];
  const probes: SeenRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const seen: SeenRequest = {
        path: request.url ?? '',
        headers: request.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        at: Date.now(),
      };
      (probePaths.has(seen.path) ? probes : requests).push(seen);
      response.on('close', () => {
        if (!response.writableFinished) seen.abortedAt = Date.now();
      });
      const reply = takeReply(queue, seen.path);
      const send = () => {
        const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        response.end(body);
      };
      if (!reply.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!response.destroyed) send();
      }, reply.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    requests,
    probes,
    push: (...more) => queue.push(...more),
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function takeReply(queue: ScriptedReply[], path: string): ScriptedReply {
  const forPath = queue.findIndex((reply) => reply.path === path);
  if (forPath >= 0) return queue.splice(forPath, 1)[0] as ScriptedReply;
  if (probePaths.has(path)) return { status: 404, body: { error: 'not found' } };
  const next = queue.findIndex((reply) => reply.path === undefined);
  if (next >= 0) return queue.splice(next, 1)[0] as ScriptedReply;
  return { status: 599, body: { error: { message: 'no scripted reply left' } } };
}

/** A chat-completions reply with optional tool calls. */
export function chatReply(
  content: string,
  toolCalls: { name: string; arguments: Record<string, unknown> }[] = [],
  usage = { prompt_tokens: 100, completion_tokens: 10 },
) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 0,
    model: 'test-model',
    choices: [
      {
        index: 0,
        finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
        message: {
          role: 'assistant',
          content: content === '' ? null : content,
          ...(toolCalls.length === 0
            ? {}
            : {
                tool_calls: toolCalls.map((call, i) => ({
                  id: `call_${i}_${call.name}`,
                  type: 'function',
                  function: { name: call.name, arguments: JSON.stringify(call.arguments) },
                })),
              }),
        },
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** A Messages API reply with optional tool_use blocks. */
export function messagesReply(
  text: string,
  toolUses: { name: string; input: Record<string, unknown> }[] = [],
  usage = { input_tokens: 120, output_tokens: 12 },
) {
  return {
    id: 'msg_test',
    type: 'message',
    role: 'assistant',
    model: 'test-model',
    stop_reason: toolUses.length > 0 ? 'tool_use' : 'end_turn',
    content: [
      ...(text === '' ? [] : [{ type: 'text', text }]),
      ...toolUses.map((use, i) => ({
        type: 'tool_use',
        id: `toolu_${i}_${use.name}`,
        name: use.name,
        input: use.input,
      })),
    ],
    usage,
  };
}
