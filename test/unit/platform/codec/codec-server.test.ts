import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCodecKeys } from '../../../../platform/codec/codec-keys.js';
import { startCodecServer, type RunningCodecServer } from '../../../../platform/codec/codec-server.js';
import { EncryptionCodec } from '../../../../platform/codec/encryption-codec.js';

const UI = 'http://localhost:8233';
const TOKEN = 'a-token-of-the-operator-0123456789';
const MARKER = 'codec-server-marker-5d1e';
const codec = new EncryptionCodec(parseCodecKeys([`k1:${randomBytes(32).toString('base64')}`], String, 'test'));

const toJson = (payload: Payload) => ({
  metadata: Object.fromEntries(
    Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
  ),
  data: Buffer.from(payload.data ?? new Uint8Array(0)).toString('base64'),
});
const fromJson = (payload: { metadata: Record<string, string>; data: string }): Payload => ({
  metadata: Object.fromEntries(
    Object.entries(payload.metadata).map(([key, value]) => [key, Buffer.from(value, 'base64')]),
  ),
  data: Buffer.from(payload.data, 'base64'),
});

describe('the codec server, over real HTTP', () => {
  let guarded: RunningCodecServer;
  const logged: string[] = [];
  beforeAll(async () => {
    guarded = await startCodecServer({
      codec,
      host: '127.0.0.1',
      port: 0,
      origins: [UI],
      token: TOKEN,
      log: (line) => logged.push(line),
    });
  });
  afterAll(async () => {
    await guarded.close();
  });

  const post = (server: RunningCodecServer, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Namespace': 'default', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  // The calls that are not about the token carry it as a bearer header, as the temporal CLI's --codec-auth does.
  const authorized = { Authorization: `Bearer ${TOKEN}` };

  it('decodes what the codec encrypted, and encodes what it is given, in proto3 JSON', async () => {
    const sealed = await codec.encode([defaultPayloadConverter.toPayload({ goal: MARKER })]);
    const decoded = await post(guarded, '/decode', { payloads: sealed.map(toJson) }, authorized);
    expect(decoded.status).toBe(200);
    const body = (await decoded.json()) as { payloads: { metadata: Record<string, string>; data: string }[] };
    expect(Buffer.from(body.payloads[0]?.metadata.encoding ?? '', 'base64').toString()).toBe('json/plain');
    expect(defaultPayloadConverter.fromPayload(fromJson(body.payloads[0] as never))).toEqual({ goal: MARKER });

    const encoded = await post(guarded, '/encode', { payloads: body.payloads }, authorized);
    const encodedBody = (await encoded.json()) as typeof body;
    expect(Buffer.from(encodedBody.payloads[0]?.data ?? '', 'base64').toString('latin1')).not.toContain(MARKER);
    const back = await codec.decode(encodedBody.payloads.map(fromJson));
    expect(defaultPayloadConverter.fromPayload(back[0] as Payload)).toEqual({ goal: MARKER });
  });

  it('passes clear payloads through, and answers a path prefix (/default/decode) as /decode', async () => {
    const clear = defaultPayloadConverter.toPayload('plain');
    const response = await post(guarded, '/default/decode', { payloads: [toJson(clear)] }, authorized);
    expect(((await response.json()) as { payloads: unknown[] }).payloads).toEqual([toJson(clear)]);
  });

  it("answers the Web UI's CORS preflight for its origin, and gives the origin on the reply", async () => {
    const preflight = await fetch(`${guarded.url}/decode`, {
      method: 'OPTIONS',
      headers: {
        Origin: UI,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,x-namespace,authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(UI);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toBe(
      'content-type, x-namespace, authorization',
    );
    const reply = await post(guarded, '/decode', { payloads: [] }, { Origin: UI, ...authorized });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBe(UI);
  });

  it('refuses a browser page of another origin, preflight and call alike, without decrypting', async () => {
    const sealed = await codec.encode([defaultPayloadConverter.toPayload(MARKER)]);
    const preflight = await fetch(`${guarded.url}/decode`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const call = await post(
      guarded,
      '/decode',
      { payloads: sealed.map(toJson) },
      { Origin: 'https://evil.example', ...authorized },
    );
    expect(call.status).toBe(403);
    expect(await call.text()).not.toContain(Buffer.from(JSON.stringify(MARKER)).toString('base64'));
  });

  it('with a token, refuses a call without it or with a wrong one (401), and answers one with it', async () => {
    const sealed = await codec.encode([defaultPayloadConverter.toPayload(MARKER)]);
    const body = { payloads: sealed.map(toJson) };
    const without = await post(guarded, '/decode', body);
    expect(without.status).toBe(401);
    expect(((await without.json()) as { error: string }).error).toContain('the token is missing or wrong');
    expect((await post(guarded, '/decode', body, { Authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect((await post(guarded, '/decode', body, { Authorization: TOKEN })).status).toBe(401);
    const withToken = await post(guarded, '/decode', body, { Authorization: `Bearer ${TOKEN}` });
    expect(withToken.status).toBe(200);
    // The scheme in any case (RFC 9110), as some clients send it.
    expect((await post(guarded, '/decode', body, { Authorization: `bearer ${TOKEN}` })).status).toBe(200);
    expect((await post(guarded, '/decode', body, { Authorization: `BEARER ${TOKEN}` })).status).toBe(200);
    expect((await post(guarded, '/decode', body, { Authorization: `Basic ${TOKEN}` })).status).toBe(401);
    // A browser's preflight carries no Authorization header: it is answered all the same.
    const preflight = await fetch(`${guarded.url}/decode`, {
      method: 'OPTIONS',
      headers: { Origin: UI, 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
  });

  it('answers its endpoint as the Web UI calls it: the token in the path, the preflight, then POST /decode', async () => {
    expect(guarded.endpoint).toBe(`${guarded.url}/${TOKEN}`);
    const sealed = await codec.encode([defaultPayloadConverter.toPayload({ goal: MARKER })]);
    // What temporalio/ui's data-encoder does: fetch(endpoint + '/decode') with these two headers and no credentials
    // (a bearer header only for its own OIDC access token, over https), from the UI's origin, after a preflight.
    const preflight = await fetch(`${guarded.endpoint}/decode`, {
      method: 'OPTIONS',
      headers: {
        Origin: UI,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,x-namespace',
      },
    });
    expect(preflight.status).toBe(204);
    const call = await fetch(`${guarded.endpoint}/decode`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Namespace': 'default', Origin: UI },
      body: JSON.stringify({ payloads: sealed.map(toJson) }),
    });
    expect(call.status).toBe(200);
    expect(call.headers.get('access-control-allow-origin')).toBe(UI);
    const body = (await call.json()) as { payloads: { metadata: Record<string, string>; data: string }[] };
    expect(defaultPayloadConverter.fromPayload(fromJson(body.payloads[0] as never))).toEqual({ goal: MARKER });
    // An endpoint saved with a trailing slash, and the temporal CLI's {namespace} template below the token.
    expect((await post(guarded, `/${TOKEN}//decode`, { payloads: [] })).status).toBe(200);
    expect((await post(guarded, `/${TOKEN}/default/encode`, { payloads: [] })).status).toBe(200);
  });

  it('refuses every call without the token, the endpoint without its path included, and logs no token', async () => {
    const sealed = await codec.encode([defaultPayloadConverter.toPayload(MARKER)]);
    const body = { payloads: sealed.map(toJson) };
    const sealedText = Buffer.from(JSON.stringify(MARKER)).toString('base64');
    logged.length = 0;
    for (const path of ['/decode', '/default/decode', `/${TOKEN}x/decode`, `/default/${TOKEN}/decode`, `/${TOKEN}`]) {
      const refused = await post(guarded, path, body, { Origin: UI });
      expect(refused.status, path).toBe(path === `/${TOKEN}` ? 404 : 401);
      const text = await refused.text();
      expect(text).not.toContain(sealedText);
      expect(text).not.toContain(TOKEN);
    }
    // A failed call under the right path is logged without the path's token.
    expect((await post(guarded, `/${TOKEN}/decode`, 'nope')).status).toBe(400);
    expect(logged).toHaveLength(6);
    for (const line of logged) expect(line).not.toContain(TOKEN.slice(0, 16));
    expect(logged.at(-1)).toContain('POST /…/decode: 400');
  });

  it('answers bad requests with 400, 404 and 405 and a message', async () => {
    const notJson = await post(guarded, '/decode', 'nope', authorized);
    expect([notJson.status, await notJson.json()]).toEqual([
      400,
      { error: 'the body is not JSON: send {"payloads": [...]}' },
    ]);
    expect((await post(guarded, '/decode', { items: [] }, authorized)).status).toBe(400);
    expect((await post(guarded, '/other', { payloads: [] }, authorized)).status).toBe(404);
    expect((await fetch(`${guarded.url}/decode`)).status).toBe(405);
    const unknownKey = await new EncryptionCodec(
      parseCodecKeys([`k9:${randomBytes(32).toString('base64')}`], String, 'other'),
    ).encode([defaultPayloadConverter.toPayload(MARKER)]);
    const refused = await post(guarded, '/decode', { payloads: unknownKey.map(toJson) }, authorized);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toContain('key id "k9"');
  });

  it('writes a key id the caller chose escaped into its log and reply, and names no file of its host', async () => {
    const lines: string[] = [];
    const fromFile = new EncryptionCodec(
      parseCodecKeys([`k1:${randomBytes(32).toString('base64')}`], String, 'TASKLOOP_CODEC_KEY_FILE (/srv/host/keys)'),
    );
    const server = await startCodecServer({
      codec: fromFile,
      host: '127.0.0.1',
      port: 0,
      origins: [UI],
      token: TOKEN,
      log: (line) => lines.push(line),
    });
    try {
      const forged = 'k9\n2026-12-07 GET /decode: 200 ok\u001b[2J\u2028';
      const payload = {
        metadata: {
          encoding: Buffer.from('binary/encrypted').toString('base64'),
          'encryption-key-id': Buffer.from(forged).toString('base64'),
        },
        data: randomBytes(40).toString('base64'),
      };
      const refused = await post(server, '/decode', { payloads: [payload] }, authorized);
      expect(refused.status).toBe(400);
      const { error } = (await refused.json()) as { error: string };
      expect(error).toContain('key id "k9\\u{a}2026-12-07 GET /decode: 200 ok\\u{1b}[2J\\u{2028}"');
      expect(error).toContain('which TASKLOOP_CODEC_KEY_FILE does not hold');
      expect(error).not.toContain('/srv/host');
      expect(lines).toHaveLength(1);
      for (const text of [error, ...lines])
        for (const raw of ['\n', '\r', '\u001b', '\u2028']) expect(text).not.toContain(raw);
      expect(lines[0]).not.toContain('/srv/host');
    } finally {
      await server.close();
    }
  });
});
