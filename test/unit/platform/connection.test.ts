import { mkdtemp, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  connectClient,
  ConnectionError,
  DEFAULT_ADDRESS,
  resolveTemporalTarget,
} from '../../../platform/connection.js';
import { findFreePort } from '../../../platform/server/ports.js';

const noConfigFile = async () => ({
  TEMPORAL_CONFIG_FILE: path.join(await mkdtemp(path.join(os.tmpdir(), 'taskloop-env-')), 'none.toml'),
});

describe('the connection from the standard Temporal environment', () => {
  it('defaults to the local dev server and the default namespace', async () => {
    const target = resolveTemporalTarget(await noConfigFile());
    expect(target).toMatchObject({ address: DEFAULT_ADDRESS, namespace: 'default' });
  });

  it('takes TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY and TLS from the environment', async () => {
    const target = resolveTemporalTarget({
      ...(await noConfigFile()),
      TEMPORAL_ADDRESS: 'my-ns.a1b2c.tmprl.cloud:7233',
      TEMPORAL_NAMESPACE: 'my-ns.a1b2c',
      TEMPORAL_API_KEY: 'key-123',
      TEMPORAL_TLS: 'true',
    });
    expect(target.address).toBe('my-ns.a1b2c.tmprl.cloud:7233');
    expect(target.namespace).toBe('my-ns.a1b2c');
    expect(target.connectionOptions.apiKey).toBe('key-123');
    expect(target.connectionOptions.tls).toBeTruthy();
  });

  it('reads a named profile from the config file, with the environment overriding it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-env-'));
    const file = path.join(dir, 'temporal.toml');
    await writeFile(file, '[profile.staging]\naddress = "staging.example:7233"\nnamespace = "staging"\n');
    expect(resolveTemporalTarget({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'staging' })).toMatchObject({
      address: 'staging.example:7233',
      namespace: 'staging',
    });
    expect(
      resolveTemporalTarget({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'staging', TEMPORAL_NAMESPACE: 'other' })
        .namespace,
    ).toBe('other');
  });

  it('names the variable that set a TLS file that cannot be read, not the config file', async () => {
    const env = {
      ...(await noConfigFile()),
      TEMPORAL_TLS: 'true',
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: '/nonexistent/ca.pem',
    };
    const error = (() => {
      try {
        resolveTemporalTarget(env);
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error?.message).toMatch(
      /^could not load the Temporal connection settings: TEMPORAL_TLS_SERVER_CA_CERT_PATH=\/nonexistent\/ca\.pem cannot be read \(ENOENT.*\); fix the path or unset TEMPORAL_TLS_SERVER_CA_CERT_PATH$/,
    );
  });

  // The address probe answers a refusal at once (gRPC would wait its whole 5 s connect timeout and say "deadline"):
  // its words, not a clock, show the probe answered.
  it('says a refused connection from the address probe, naming the address, "connection refused" and the fix', async () => {
    const port = await findFreePort();
    const error = await connectClient({ ...(await noConfigFile()), TEMPORAL_ADDRESS: `127.0.0.1:${port}` }).catch(
      (caught: unknown) => caught as Error,
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe(
      `cannot reach Temporal at 127.0.0.1:${port} (namespace default): connection refused; start a local server with \`taskloop server\`, or set TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE, TEMPORAL_API_KEY or TLS settings) to reach another.`,
    );
  });

  it('says an unknown host at once, naming the setting to check', async () => {
    const promise = connectClient({ ...(await noConfigFile()), TEMPORAL_ADDRESS: 'no-such-host.invalid:7233' });
    await expect(promise).rejects.toThrow(
      /at no-such-host\.invalid:7233 .*: host not found; check the host name in TEMPORAL_ADDRESS/,
    );
  });

  it('turns an unreachable server into one line naming the address and the fix', async () => {
    const port = await findFreePort();
    const promise = connectClient({ ...(await noConfigFile()), TEMPORAL_ADDRESS: `127.0.0.1:${port}` });
    await expect(promise).rejects.toThrow(ConnectionError);
    await expect(promise).rejects.toThrow(
      new RegExp(`cannot reach Temporal at 127\\.0\\.0\\.1:${port}.*taskloop server.*TEMPORAL_ADDRESS`),
    );
  });

  it('gives a server that accepted the connection time to answer, then says it is busy, not unreachable', async () => {
    // Accepts and never speaks gRPC: a frontend too busy to answer (the rate-limited cluster's lists met this).
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const started = Date.now();
    try {
      const promise = connectClient({ ...(await noConfigFile()), TEMPORAL_ADDRESS: `127.0.0.1:${port}` });
      await expect(promise).rejects.toThrow(
        new RegExp(`Temporal at 127\\.0\\.0\\.1:${port} .*accepted the connection but did not answer within 20s`),
      );
      // Longer than the 5 s an address that accepts nothing gets.
      expect(Date.now() - started).toBeGreaterThanOrEqual(19_000);
    } finally {
      silent.close();
    }
  }, 60_000);

  it('refuses bad payload keys before contacting anything, naming the variable and the problem', async () => {
    await expect(
      connectClient({ ...(await noConfigFile()), TEMPORAL_ADDRESS: '127.0.0.1:1', TASKLOOP_CODEC_KEYS: 'k1:c2hvcnQ=' }),
    ).rejects.toThrow(/^TASKLOOP_CODEC_KEYS: entry 1 \(key id "k1"\): the key is 5 bytes once base64-decoded/);
  });
});
