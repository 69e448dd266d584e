// A plain TCP connect to the frontend before gRPC: a refused port or an unknown host is known in milliseconds,
// where the gRPC connection waits out its whole connect timeout (5 s) before saying only "deadline".
import net from 'node:net';
import tls from 'node:tls';

export type ProbeResult = { reachable: true } | { reachable: false; error: Error } | { reachable: 'unknown' };

/** Splits `host:port` and `[v6]:port`; undefined when the address has no port to probe. */
export function splitAddress(address: string): { host: string; port: number } | undefined {
  const match = /^\[([^\]]+)\]:(\d+)$/.exec(address) ?? /^([^:]+):(\d+)$/.exec(address);
  if (!match) return undefined;
  const port = Number(match[2]);
  return port > 0 && port < 65536 ? { host: match[1] as string, port } : undefined;
}

/** Connects and closes at once. A silent network (no answer within `timeoutMs`) is "unknown", left to gRPC. */
export function probeAddress(address: string, timeoutMs = 800): Promise<ProbeResult> {
  const parts = splitAddress(address);
  if (!parts) return Promise.resolve({ reachable: 'unknown' });
  return new Promise((resolve) => {
    const socket = net.connect({ host: parts.host, port: parts.port });
    const done = (result: ProbeResult) => {
      socket.destroy();
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => done({ reachable: 'unknown' }), timeoutMs);
    socket.once('connect', () => done({ reachable: true }));
    socket.once('error', (error) => done({ reachable: false, error }));
  });
}

/** What a TLS client reads when the server answers in plaintext (an HTTP/2 frame where a TLS record belongs). */
const PLAINTEXT_REPLY =
  /wrong version number|packet length too long|unknown protocol|record layer failure|ECONNRESET|socket disconnected before secure/i;

/**
 * With TLS on: a TLS handshake before gRPC. A plaintext server answers a ClientHello with bytes that are no TLS
 * record, known at once, where the gRPC connection would wait out its connect timeout and say only "deadline".
 * Certificates are not checked here (the connection itself does): only whether the server speaks TLS at all.
 */
export function probeTls(address: string, serverName?: string, timeoutMs = 800): Promise<ProbeResult> {
  const parts = splitAddress(address);
  if (!parts) return Promise.resolve({ reachable: 'unknown' });
  return new Promise((resolve) => {
    const socket = tls.connect({
      host: parts.host,
      port: parts.port,
      servername: serverName ?? (net.isIP(parts.host) ? undefined : parts.host),
      ALPNProtocols: ['h2'],
      rejectUnauthorized: false,
    });
    const done = (result: ProbeResult) => {
      socket.destroy();
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => done({ reachable: 'unknown' }), timeoutMs);
    socket.once('secureConnect', () => done({ reachable: true }));
    socket.once('error', (error) =>
      done(
        PLAINTEXT_REPLY.test(`${error.message} ${(error as NodeJS.ErrnoException).code ?? ''}`)
          ? { reachable: false, error: new Error(`the server does not appear to use TLS (${error.message})`) }
          : { reachable: 'unknown' },
      ),
    );
  });
}
