// `taskloop codec-server`: decrypts (and encrypts) payloads over HTTP for the Web UI and the `temporal` CLI, with
// this host's payload keys, for callers that hold its token (always: see platform/codec/codec-server-token.ts).
import { intFlag, parseFlags } from '../args.js';
import { UsageError } from '../cli-errors.js';
import type { Command } from './command.js';
import { resolveHostCodec } from '../../platform/codec/host-codec.js';
import { DEFAULT_CODEC_PORT, DEFAULT_UI_ORIGIN, startCodecServer } from '../../platform/codec/codec-server.js';
import {
  CodecServerTokenError,
  resolveCodecServerToken,
  TOKEN_FILE_NAME,
  TOKEN_VARIABLE,
} from '../../platform/codec/codec-server-token.js';
import { stateDir } from '../../platform/paths.js';

const help = `Usage: taskloop codec-server [--port ${DEFAULT_CODEC_PORT}] [--ip 127.0.0.1] [--origin URL]... [--token-file FILE]

Serves Temporal's codec protocol (POST /encode and /decode, {"payloads": [...]}) with this host's payload keys
(TASKLOOP_CODEC_KEYS or TASKLOOP_CODEC_KEY_FILE, the same keys as the workers'), so those who hold the key see
goals, hints and results decoded. Every call needs its token, which it prints inside the endpoint to give:
  Web UI        Settings (the codec icon, top right) > Codec Server endpoint: http://127.0.0.1:${DEFAULT_CODEC_PORT}/TOKEN
  temporal CLI  temporal workflow show -w ID --codec-endpoint http://127.0.0.1:${DEFAULT_CODEC_PORT}/TOKEN
                (or --codec-endpoint http://127.0.0.1:${DEFAULT_CODEC_PORT} --codec-auth "Bearer TOKEN")
Runs until Ctrl-C (SIGINT) or SIGTERM.

  --port N          the port (default ${DEFAULT_CODEC_PORT}; 0 picks a free one and prints it)
  --ip ADDRESS      where to listen (default 127.0.0.1)
  --origin URL      a browser origin allowed to call it (CORS); repeat for several (default ${DEFAULT_UI_ORIGIN},
                    the local Web UI); a page of any other origin is refused
  --token-file FILE a file holding the token (also ${TOKEN_VARIABLE}); without either, a random one made once
                    and kept in the state folder (.taskloop/${TOKEN_FILE_NAME}, mode 600)

Exit codes: 0 stopped by a signal, 1 it could not listen, 2 bad flags, a bad token or no payload key.`;

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
    const host = resolveHostCodec();
    if (!host.keys)
      throw new UsageError(
        'taskloop codec-server: no payload key: set TASKLOOP_CODEC_KEYS or TASKLOOP_CODEC_KEY_FILE to the keys the workers use (docs/security.md#encrypted-payloads)',
      );
    const { token, source } = await resolveCodecServerToken(values['token-file'], stateDir()).catch(
      (error: unknown) => {
        if (error instanceof CodecServerTokenError) throw new UsageError(`taskloop codec-server: ${error.message}`);
        throw error;
      },
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
    console.log(`  browsers allowed from: ${origins.join(', ')}; every call needs the token (from ${source})`);
    console.log(`  Web UI: Codec Server endpoint ${running.endpoint}`);
    console.log(`  CLI:    temporal workflow show -w ID --codec-endpoint ${running.endpoint}`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    await running.close();
    return 0;
  },
};
