// `taskloop codec-server`: decrypts (and encrypts) payloads over HTTP for the Web UI and the `temporal` CLI, with
// this host's payload keys; loopback only unless a token guards it.
import { readFile } from 'node:fs/promises';
import { intFlag, parseFlags } from '../args.js';
import { UsageError } from '../cli-errors.js';
import type { Command } from './command.js';
import { isLoopbackAddress, resolveHostCodec } from '../../platform/codec/host-codec.js';
import { DEFAULT_CODEC_PORT, DEFAULT_UI_ORIGIN, startCodecServer } from '../../platform/codec/codec-server.js';

const TOKEN_VARIABLE = 'TASKLOOP_CODEC_SERVER_TOKEN';

const help = `Usage: taskloop codec-server [--port ${DEFAULT_CODEC_PORT}] [--ip 127.0.0.1] [--origin URL]... [--token-file FILE]

Serves Temporal's codec protocol (POST /encode and /decode, {"payloads": [...]}) with this host's payload keys
(TASKLOOP_CODEC_KEYS or TASKLOOP_CODEC_KEY_FILE, the same keys as the workers'), so those who hold the key see
goals, hints and results decoded:
  Web UI        Settings (the codec icon, top right) > Codec Server endpoint: http://127.0.0.1:${DEFAULT_CODEC_PORT}
  temporal CLI  temporal workflow show -w ID --codec-endpoint http://127.0.0.1:${DEFAULT_CODEC_PORT}
                (with a token: --codec-auth "Bearer TOKEN")
Runs until Ctrl-C (SIGINT) or SIGTERM.

  --port N          the port (default ${DEFAULT_CODEC_PORT}; 0 picks a free one and prints it)
  --ip ADDRESS      where to listen (default 127.0.0.1); any other than loopback needs a token
  --origin URL      a browser origin allowed to call it (CORS); repeat for several (default ${DEFAULT_UI_ORIGIN},
                    the local Web UI); a page of any other origin is refused
  --token-file FILE a file holding a token: every /encode and /decode then needs "Authorization: Bearer TOKEN"
                    (also ${TOKEN_VARIABLE}); a browser's preflight needs none

Exit codes: 0 stopped by a signal, 1 it could not listen, 2 bad flags or no payload key.`;

export const codecServerCommand: Command = {
  summary: "decode payloads for the Web UI and the temporal CLI with this host's payload keys",
  help,
  async run(argv) {
    const { values } = parseFlags('codec-server', argv, {
      port: { type: 'string' },
      ip: { type: 'string' },
      origin: { type: 'string', multiple: true },
      'token-file': { type: 'string' },
    });
    const port = intFlag('codec-server', 'port', values.port, DEFAULT_CODEC_PORT, 0, 65_535);
    const ip = values.ip ?? '127.0.0.1';
    const origins = values.origin ?? [DEFAULT_UI_ORIGIN];
    for (const origin of origins)
      if (!/^https?:\/\/[^/\s]+$/.test(origin))
        throw new UsageError(
          `taskloop codec-server: --origin must be a scheme and host with no path, e.g. ${DEFAULT_UI_ORIGIN}, got ${JSON.stringify(origin)}`,
        );
    const token = await readToken(values['token-file']);
    const host = resolveHostCodec();
    if (!host.keys)
      throw new UsageError(
        'taskloop codec-server: no payload key: set TASKLOOP_CODEC_KEYS or TASKLOOP_CODEC_KEY_FILE to the keys the workers use (docs/security.md#encrypted-payloads)',
      );
    if (!isLoopbackAddress(`${ip}:0`) && token === undefined)
      throw new UsageError(
        `taskloop codec-server: --ip ${ip} is reachable from other machines, and the server decrypts for anyone who reaches it: give a token (--token-file or ${TOKEN_VARIABLE}), or listen on 127.0.0.1`,
      );
    const running = await startCodecServer({
      codec: host.codec,
      host: ip,
      port,
      origins,
      token,
      log: (line) => console.error(`codec-server: ${line}`),
    }).catch((error: unknown) => {
      throw new Error(`taskloop codec-server: cannot listen on ${ip}:${port}: ${(error as Error).message}`);
    });
    console.log(`codec server at ${running.url} (key "${host.keys.current.id}", ${host.keys.byId.size} key(s) known)`);
    console.log(`  browsers allowed from: ${origins.join(', ')}; ${token ? 'token required' : 'no token'}`);
    console.log(`  Web UI: Codec Server endpoint ${running.url}`);
    console.log(
      `  CLI:    temporal workflow show -w ID --codec-endpoint ${running.url}${token ? ' --codec-auth "Bearer $TOKEN"' : ''}`,
    );
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    await running.close();
    return 0;
  },
};

async function readToken(file: string | undefined): Promise<string | undefined> {
  const where = file === undefined ? TOKEN_VARIABLE : `--token-file ${file}`;
  const text =
    file === undefined
      ? process.env[TOKEN_VARIABLE]
      : await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
          throw new UsageError(`taskloop codec-server: ${where}: cannot be read (${error.code ?? error.message})`);
        });
  const token = text?.trim();
  if (!token && file === undefined) return undefined;
  if (!token || token.length < 16)
    throw new UsageError(
      `taskloop codec-server: ${where}: the token is ${token?.length ?? 0} characters, at least 16 are needed (make one with: openssl rand -hex 32)`,
    );
  return token;
}
