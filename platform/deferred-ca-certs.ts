// bin/taskloop starts the commands that only ask Temporal something without NODE_EXTRA_CA_CERTS (Node 20 reads that
// bundle before any script runs) and passes its path on as TASKLOOP_DEFERRED_CA_CERTS. Such a command's one TLS
// connection is Temporal's, so the certificates are added to that connection's roots here, as Node would have
// added them to its default roots.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { ClientConnectConfig } from '@temporalio/envconfig';

type ConnectionOptions = ClientConnectConfig['connectionOptions'];

/** The connection options with the deferred certificates among the TLS roots; unchanged without TLS or deferral. */
export function withDeferredCaCerts(options: ConnectionOptions, env: NodeJS.ProcessEnv): ConnectionOptions {
  const file = env.TASKLOOP_DEFERRED_CA_CERTS;
  if (!file || !options.tls) return options;
  const tls = options.tls === true ? {} : options.tls;
  // A CA of the connection's own replaces Node's default roots, extra certificates included: nothing to add.
  if (tls.serverRootCACertificate) return options;
  let extra: string;
  try {
    extra = readFileSync(file, 'utf8');
  } catch (error) {
    // What Node does with an unreadable NODE_EXTRA_CA_CERTS: warn, and go on with the default roots.
    process.emitWarning(`Ignoring extra certs from \`${file}\`, load failed: ${(error as Error).message}`);
    return options;
  }
  const roots = [...rootCertificates, extra].join('\n');
  return { ...options, tls: { ...tls, serverRootCACertificate: Buffer.from(roots) } };
}
