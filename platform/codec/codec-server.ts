// A codec server: Temporal's `/encode` and `/decode` over HTTP (POST `{payloads: [...]}`, proto3 JSON: bytes as
// base64), so the Web UI (its codec endpoint setting) and `temporal workflow show --codec-endpoint` show payloads to
// whoever holds the key. Browsers are let in only from the configured origins, and every call needs the token: as
// `Authorization: Bearer`, or as the endpoint's first path segment (`/<token>/decode`), the one way the Web UI can
// send a secret without a login of its own (it adds a bearer header only for an OIDC access token, over https).
import type { Payload, PayloadCodec } from '@temporalio/common';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';

/** The Web UI of `temporal server start-dev` (and `taskloop server`). */
export const DEFAULT_UI_ORIGIN = 'http://localhost:8233';
export const DEFAULT_CODEC_PORT = 8888;
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const ALLOWED_HEADERS = 'Content-Type, X-Namespace, Authorization';

export interface CodecServerOptions {
  codec: PayloadCodec;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Browser origins allowed to call (CORS), e.g. the Web UI's `http://localhost:8233`. */
  origins: string[];
  /** Every /encode and /decode needs it: `Authorization: Bearer <token>`, or the path `/<token>/…/decode`. */
  token: string;
  /** One line per refused or failed call (never a payload). */
  log?: (line: string) => void;
}

export interface RunningCodecServer {
  /** `http://host:port`: for a client that sends the token as `Authorization: Bearer`. */
  url: string;
  /** `http://host:port/<token>`: the codec endpoint to give the Web UI (it posts to this + `/decode`). */
  endpoint: string;
  close(): Promise<void>;
}

interface JsonPayload {
  metadata?: Record<string, string>;
  data?: string;
}

class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startCodecServer(options: CodecServerOptions): Promise<RunningCodecServer> {
  const log = options.log ?? (() => undefined);
  const server = createServer((request, response) => {
    handle(request, response, options).catch((error: unknown) => {
      const status = error instanceof RequestError ? error.status : 500;
      // What a request carries (its key ids above all) is the caller's: control characters are written out, so a
      // reply or a log line never holds a line or a terminal sequence the caller chose.
      const message = printable(error instanceof Error ? error.message : String(error));
      log(printable(`${request.method ?? '?'} ${redactedPath(request.url)}: ${status} ${message}`));
      if (!response.headersSent) send(response, status, { error: message }, corsHeaders(request, options.origins));
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}`;
  return {
    url,
    endpoint: `${url}/${encodeURIComponent(options.token)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(request: IncomingMessage, response: ServerResponse, options: CodecServerOptions): Promise<void> {
  const origin = request.headers.origin;
  // A browser page of any other origin is refused outright, not only denied the reply (CORS alone would still let
  // it make the server decrypt).
  if (origin !== undefined && !options.origins.includes(origin))
    throw new RequestError(403, `origin ${origin} is not allowed (allowed: ${options.origins.join(', ') || 'none'})`);
  const cors = corsHeaders(request, options.origins);
  if (request.method === 'OPTIONS') {
    response.writeHead(204, {
      ...cors,
      'Access-Control-Allow-Methods': 'POST, OPTIONS',
      'Access-Control-Allow-Headers': ALLOWED_HEADERS,
      'Access-Control-Max-Age': '600',
    });
    response.end();
    return;
  }
  const segments = pathSegments(request.url);
  const operation = /^(encode|decode)$/.exec(segments.at(-1) ?? '')?.[1];
  if (!operation) throw new RequestError(404, 'not found: POST /encode or /decode');
  if (request.method !== 'POST')
    throw new RequestError(405, `${request.method ?? '?'} not allowed: POST /${operation}`);
  const inPath = segments.length > 1 && secretMatches(segments[0] ?? '', options.token);
  if (!inPath && !bearerMatches(request.headers.authorization, options.token))
    throw new RequestError(
      401,
      'the token is missing or wrong: call the endpoint `taskloop codec-server` prints (http://HOST:PORT/<token>, the Web UI setting) or send Authorization: Bearer <token>',
    );
  const payloads = parsePayloads(await readBody(request));
  const coded =
    operation === 'encode'
      ? await options.codec.encode(payloads)
      : await options.codec.decode(payloads).catch(badInput);
  send(response, 200, { payloads: coded.map(toJson) }, cors);
}

function badInput(error: unknown): never {
  throw new RequestError(400, (error as Error).message);
}

function corsHeaders(request: IncomingMessage, origins: string[]): Record<string, string> {
  const origin = request.headers.origin;
  if (origin === undefined || !origins.includes(origin)) return {};
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin' };
}

/** The path's segments, percent-decoded (a segment that does not decode is kept as sent). */
function pathSegments(url: string | undefined): string[] {
  const pathname = new URL(url ?? '/', 'http://codec').pathname;
  return pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}

/** The request's path for the log: its operation only, as any other segment may be the token or a near miss. */
function redactedPath(url: string | undefined): string {
  const segments = pathSegments(url);
  const last = segments.at(-1) ?? '';
  return `${segments.length > 1 ? '/…' : ''}/${/^(encode|decode)$/.test(last) ? last : last && '…'}`;
}

/** `Authorization: Bearer <token>`, the scheme in any case (RFC 9110: auth schemes are case-insensitive). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^bearer +(.*)$/i.exec(header ?? '');
  return match !== null && secretMatches(match[1] ?? '', token);
}

function secretMatches(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `text` with every control character (C0, C1, line and paragraph separators) written as `\u{…}`. */
export function printable(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
    out += control ? `\\u{${code.toString(16)}}` : char;
  }
  return out;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new RequestError(413, `body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parsePayloads(body: string): Payload[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new RequestError(400, 'the body is not JSON: send {"payloads": [...]}');
  }
  const payloads = (parsed as { payloads?: unknown } | null)?.payloads;
  if (!Array.isArray(payloads))
    throw new RequestError(400, 'the body has no "payloads" array: send {"payloads": [...]}');
  return payloads.map((payload: JsonPayload, index) => {
    if (typeof payload !== 'object' || payload === null)
      throw new RequestError(400, `payloads[${index}] is not an object`);
    const metadata: Record<string, Uint8Array> = {};
    for (const [key, value] of Object.entries(payload.metadata ?? {})) {
      if (typeof value !== 'string') throw new RequestError(400, `payloads[${index}].metadata.${key} is not base64`);
      metadata[key] = Buffer.from(value, 'base64');
    }
    return { metadata, data: Buffer.from(typeof payload.data === 'string' ? payload.data : '', 'base64') };
  });
}

function toJson(payload: Payload): JsonPayload {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(payload.metadata ?? {}))
    metadata[key] = Buffer.from(value).toString('base64');
  return { metadata, data: Buffer.from(payload.data ?? new Uint8Array(0)).toString('base64') };
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  response.writeHead(status, { ...headers, 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}
