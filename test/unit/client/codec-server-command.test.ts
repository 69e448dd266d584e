// `taskloop codec-server` as an operator starts it, with no token flag: every call needs the token it made and
// kept in the state folder, the endpoint it prints for the Web UI carries it, and a call without it is refused.
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCodecKeys } from '../../../platform/codec/codec-keys.js';
import { EncryptionCodec } from '../../../platform/codec/encryption-codec.js';
import { runTaskloop, startTaskloop } from '../../support/cli.js';

const UI = 'http://localhost:8233';
const KEY = `k1:${randomBytes(32).toString('base64')}`;
const MARKER = 'codec-command-marker-71c2';
const codec = new EncryptionCodec(parseCodecKeys([KEY], String, 'test'));
// The headers temporalio/ui's data encoder sends (no Authorization: that is only ever its own OIDC access token).
const UI_HEADERS = { 'Content-Type': 'application/json', 'X-Namespace': 'default', Origin: UI };

const toJson = (payload: Payload) => ({
  metadata: Object.fromEntries(
    Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
  ),
  data: Buffer.from(payload.data ?? new Uint8Array(0)).toString('base64'),
});

describe('taskloop codec-server', () => {
  const children: ResultPromise[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.kill('SIGTERM');
      await child.catch(() => undefined);
    }
  });

  const start = async (env: NodeJS.ProcessEnv) => {
    const server = await startTaskloop(['codec-server', '--port', '0'], { env, readyText: '  CLI:' });
    children.push(server.child);
    return {
      base: /codec server at (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output)?.[1] ?? '',
      endpoint: /Web UI: Codec Server endpoint (\S+)/.exec(server.output)?.[1] ?? '',
      output: server.output,
      child: server.child,
    };
  };

  it('needs a token by default: the endpoint it prints for the Web UI works, a call without the token is refused', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'taskloop-codec-command-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TASKLOOP_HOME: home,
      TASKLOOP_CODEC_KEYS: KEY,
      TASKLOOP_CODEC_KEY_FILE: '',
    };
    delete env.TASKLOOP_CODEC_SERVER_TOKEN;
    const { base, endpoint } = await start(env);
    const tokenFile = path.join(home, 'codec-server.token');
    const token = (await readFile(tokenFile, 'utf8')).trim();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
    expect(endpoint).toBe(`${base}/${token}`);

    const sealed = await codec.encode([defaultPayloadConverter.toPayload({ goal: MARKER })]);
    const body = JSON.stringify({ payloads: sealed.map(toJson) });
    // What a sandboxed test with `network: true`, another user of the machine, or a page it proxies can send.
    const without = await fetch(`${base}/decode`, { method: 'POST', headers: UI_HEADERS, body });
    expect(without.status).toBe(401);
    expect(await without.text()).not.toContain(sealed.map(toJson)[0]?.data.slice(0, 20));
    const noOrigin = await fetch(`${base}/default/decode`, { method: 'POST', body });
    expect(noOrigin.status).toBe(401);

    // The Web UI with that endpoint saved: a preflight, then POST endpoint + '/decode'.
    const preflight = await fetch(`${endpoint}/decode`, {
      method: 'OPTIONS',
      headers: {
        Origin: UI,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,x-namespace',
      },
    });
    expect(preflight.status).toBe(204);
    const decoded = await fetch(`${endpoint}/decode`, { method: 'POST', headers: UI_HEADERS, body });
    expect(decoded.status).toBe(200);
    expect(await decoded.text()).toContain(Buffer.from(JSON.stringify({ goal: MARKER })).toString('base64'));
    // The temporal CLI's --codec-auth.
    const bearer = await fetch(`${base}/decode`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body,
    });
    expect(bearer.status).toBe(200);

    // A restart keeps the token, so the endpoint saved in the browser keeps working.
    const first = children.splice(0)[0] as ResultPromise;
    first.kill('SIGTERM');
    const stopped = await first;
    expect(stopped.all).not.toContain(`/${token}/`);
    const again = await start(env);
    expect(again.endpoint.replace(/:\d+\//, ':PORT/')).toBe(endpoint.replace(/:\d+\//, ':PORT/'));
  }, 60_000);

  it('refuses a token file every user can read, naming the file and the fix', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'taskloop-codec-command-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TASKLOOP_HOME: home,
      TASKLOOP_CODEC_KEYS: KEY,
      TASKLOOP_CODEC_KEY_FILE: '',
    };
    delete env.TASKLOOP_CODEC_SERVER_TOKEN;
    await start(env);
    const tokenFile = path.join(home, 'codec-server.token');
    await chmod(tokenFile, 0o644);
    const token = (await readFile(tokenFile, 'utf8')).trim();
    const refused = await runTaskloop(['codec-server', '--port', '0'], { env, timeout: 30_000 });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`${tokenFile} is readable by every user of this machine (mode 644)`);
    expect(refused.stderr).toContain(`chmod 600 ${tokenFile}`);
    expect(refused.all).not.toContain(token);
  }, 60_000);
});
