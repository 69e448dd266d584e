// bin/taskloop starts Temporal-only commands without NODE_EXTRA_CA_CERTS; the connection must then trust those
// certificates itself. Shown with a real TLS handshake against a server whose certificate a private CA signed.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveTemporalTarget } from '../../../platform/connection.js';

const run = promisify(execFile);

let dir: string;
let caFile: string;
let server: tls.Server;
let port: number;

/** Runs openssl; without it, says what to install (.ci/run installs it). */
async function openssl(args: string[]): Promise<void> {
  await run('openssl', args).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' ? new Error('openssl is needed by this test: apt-get install openssl') : error;
  });
}

/** A private CA and a certificate for localhost signed by it. */
async function makeCertificates(): Promise<{ key: string; cert: string }> {
  const file = (name: string) => path.join(dir, name);
  const newKey = ['-newkey', 'rsa:2048', '-nodes'];
  await openssl(
    ['req', '-x509', ...newKey, '-days', '2', '-subj', '/CN=taskloop test CA', '-keyout', file('ca.key')].concat([
      '-out',
      file('ca.pem'),
    ]),
  );
  await openssl([
    'req',
    ...newKey,
    '-subj',
    '/CN=localhost',
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
  ]);
  await writeFile(file('san.ext'), 'subjectAltName=DNS:localhost\n');
  await openssl(
    ['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key')].concat([
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      file('san.ext'),
      '-out',
      file('server.pem'),
    ]),
  );
  return { key: await readFile(file('server.key'), 'utf8'), cert: await readFile(file('server.pem'), 'utf8') };
}

/** Whether a client trusting `ca` (Node's default roots when undefined) completes a handshake with the server. */
function handshake(ca: Uint8Array | undefined): Promise<string> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername: 'localhost', ca: ca && Buffer.from(ca) });
    socket.once('secureConnect', () => {
      socket.end();
      resolve('trusted');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

const tlsTarget = (extra: NodeJS.ProcessEnv) =>
  resolveTemporalTarget({
    TEMPORAL_CONFIG_FILE: path.join(dir, 'none.toml'),
    TEMPORAL_ADDRESS: `localhost:${port}`,
    TEMPORAL_TLS: 'true',
    ...extra,
  });

const rootsOf = (options: ReturnType<typeof tlsTarget>['connectionOptions']) =>
  typeof options.tls === 'object' && options.tls ? options.tls.serverRootCACertificate : undefined;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-ca-'));
  caFile = path.join(dir, 'ca.pem');
  server = tls.createServer(await makeCertificates(), (socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the Temporal connection of a command started without NODE_EXTRA_CA_CERTS', () => {
  it('trusts the deferred certificates, and the public roots besides', async () => {
    const roots = rootsOf(tlsTarget({ TASKLOOP_DEFERRED_CA_CERTS: caFile }).connectionOptions);

    expect(await handshake(roots)).toBe('trusted');
    const text = Buffer.from(roots ?? []).toString('utf8');
    for (const root of tls.rootCertificates) expect(text).toContain(root);
  });

  it('is refused by the server without them (what the deferral would break if nothing added them)', async () => {
    const options = tlsTarget({}).connectionOptions;

    expect(rootsOf(options)).toBeUndefined();
    expect(await handshake(undefined)).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });

  it('changes nothing without TLS, or when the connection names its own CA', async () => {
    const plain = resolveTemporalTarget({
      TEMPORAL_CONFIG_FILE: path.join(dir, 'none.toml'),
      TASKLOOP_DEFERRED_CA_CERTS: caFile,
    });
    expect(plain.connectionOptions.tls).toBeFalsy();

    const ownCa = tlsTarget({ TASKLOOP_DEFERRED_CA_CERTS: caFile, TEMPORAL_TLS_SERVER_CA_CERT_PATH: caFile });
    expect(Buffer.from(rootsOf(ownCa.connectionOptions) ?? []).toString('utf8')).toBe(await readFile(caFile, 'utf8'));
  });

  it('warns and keeps the default roots when the file cannot be read, as Node does', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const missing = path.join(dir, 'missing.pem');
      expect(rootsOf(tlsTarget({ TASKLOOP_DEFERRED_CA_CERTS: missing }).connectionOptions)).toBeUndefined();
      expect(String(warn.mock.calls[0]?.[0])).toContain(`Ignoring extra certs from \`${missing}\``);
    } finally {
      warn.mockRestore();
    }
  });
});
