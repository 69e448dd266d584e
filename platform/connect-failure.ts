// What went wrong reaching Temporal, in a few words a person can act on, from whatever the transport said
// (Node's socket errors, grpc-js statuses, or the Rust core's tonic text, which the worker's connection returns).

export interface ConnectFailure {
  /** e.g. "connection refused", "host not found". */
  reason: string;
  /** The setting to look at when the address itself is right. */
  fix: string;
}

const START_OR_POINT =
  'start a local server with `taskloop server`, or set TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE, TEMPORAL_API_KEY or TLS settings) to reach another';

const rules: { test: RegExp; reason: string; fix: string }[] = [
  { test: /ECONNREFUSED|ConnectionRefused|Connection refused/i, reason: 'connection refused', fix: START_OR_POINT },
  {
    test: /ENOTFOUND|EAI_AGAIN|dns error|failed to lookup address|Name or service not known|Name resolution failed/i,
    reason: 'host not found',
    fix: 'check the host name in TEMPORAL_ADDRESS (or --address)',
  },
  {
    test: /EHOSTUNREACH|ENETUNREACH|No route to host|Network is unreachable/i,
    reason: 'no route to the host',
    fix: 'check the network and the host in TEMPORAL_ADDRESS',
  },
  {
    test: /does not appear to use TLS/,
    reason: 'TLS is on, but the server does not appear to use TLS',
    fix: 'unset TEMPORAL_TLS (and the other TEMPORAL_TLS_* settings) for a plaintext server, or point TEMPORAL_ADDRESS at its TLS endpoint',
  },
  {
    test: /certificate|tls|ssl|handshake|WRONG_VERSION_NUMBER/i,
    reason: 'TLS handshake failed',
    fix: 'check TEMPORAL_TLS, TEMPORAL_TLS_CA_CERT_PATH and the client certificate settings (TLS on one side only?)',
  },
  {
    test: /UNAUTHENTICATED|PERMISSION_DENIED|unauthori[sz]ed|invalid api key/i,
    reason: 'the server refused the credentials',
    fix: 'check TEMPORAL_API_KEY (or the client certificate) for this namespace',
  },
  {
    // Before the deadline rule: a rate-limited call retried until its deadline names both.
    test: /RESOURCE_EXHAUSTED|rate limit/i,
    reason: 'the server is refusing requests over its rate limit',
    fix: "wait and try again, or raise the namespace's limits (frontend.namespaceRPS on a self-hosted server, the namespace's actions per second on Temporal Cloud)",
  },
  {
    test: /deadline|timed? ?out|ETIMEDOUT/i,
    reason: 'no answer in time',
    fix: 'check that TEMPORAL_ADDRESS names a Temporal frontend (host:port) and that a firewall lets it through',
  },
];

/** Turns a raw connection error into a reason and a fix; unknown text keeps its first line, trimmed. */
export function describeConnectFailure(error: unknown): ConnectFailure {
  const text = collectMessages(error);
  const rule = rules.find((candidate) => candidate.test.test(text));
  if (rule) return { reason: rule.reason, fix: rule.fix };
  const first = (text.split('\n')[0] ?? '').slice(0, 160) || 'unknown error';
  return { reason: first, fix: START_OR_POINT };
}

function collectMessages(error: unknown): string {
  const parts: string[] = [];
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as Error).cause, depth++) {
    const { message, code } = cause as { message?: unknown; code?: unknown };
    parts.push(String(message ?? cause), typeof code === 'string' ? code : '');
  }
  return parts.join(' ');
}
