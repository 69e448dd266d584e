// One way to reach Temporal for the CLI and the worker: Temporal's standard environment variables and config
// profiles (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS*, TEMPORAL_PROFILE), via envconfig.
import path from 'node:path';
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { loadClientConnectConfig, type ClientConnectConfig } from '@temporalio/envconfig';
import { describeConnectFailure } from './connect-failure.js';
import { withDeferredCaCerts } from './deferred-ca-certs.js';
import { probeAddress, probeTls } from './probe-address.js';
import { cliTracingInterceptor, startTracing } from './tracing.js';
import { clearPayloadsWarning, resolveHostCodec } from './codec/host-codec.js';
import { keylessClientGuard } from './codec/keyless-guard.js';

export const DEFAULT_ADDRESS = '127.0.0.1:7233';
export const DEFAULT_NAMESPACE = 'default';

export interface TemporalTarget {
  /** Exactly what envconfig resolved, for Connection.connect / NativeConnection.connect. */
  connectionOptions: ClientConnectConfig['connectionOptions'];
  address: string;
  namespace: string;
}

export class ConnectionError extends Error {
  override name = 'ConnectionError';
}

/** Resolves where to connect from the environment and the config file profile; nothing is contacted yet. */
export function resolveTemporalTarget(env: NodeJS.ProcessEnv = process.env): TemporalTarget {
  const overrideEnvVars = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  let config: ClientConnectConfig;
  try {
    config = loadClientConnectConfig({ overrideEnvVars, profile: env.TEMPORAL_PROFILE });
  } catch (error) {
    throw new ConnectionError(`could not load the Temporal connection settings: ${describeSettingsError(error, env)}`);
  }
  const address = config.connectionOptions.address ?? DEFAULT_ADDRESS;
  return {
    connectionOptions: withDeferredCaCerts({ ...config.connectionOptions, address }, env),
    address,
    namespace: config.namespace ?? DEFAULT_NAMESPACE,
  };
}

/** The environment variables that name a TLS file (envconfig reads each when the connection settings load). */
const TLS_FILE_VARIABLES = [
  'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
  'TEMPORAL_TLS_CLIENT_CERT_PATH',
  'TEMPORAL_TLS_CLIENT_KEY_PATH',
] as const;

/** A file that could not be read is named with the variable that set it; anything else points at the config file. */
function describeSettingsError(error: unknown, env: NodeJS.ProcessEnv): string {
  const { message, path: file } = error as NodeJS.ErrnoException;
  const variable =
    file && TLS_FILE_VARIABLES.find((name) => env[name] && path.resolve(env[name]) === path.resolve(file));
  if (variable) return `${variable}=${env[variable]} cannot be read (${message}); fix the path or unset ${variable}`;
  return `${message} (check TEMPORAL_CONFIG_FILE and TEMPORAL_PROFILE)`;
}

/**
 * Tries of one call to the server inside the SDK: about 2 s of backoff, not its default 10 tries (about 20 s). A lost
 * server then reaches the waiting commands' own reconnect (client/tasks/reconnect.ts), which tells the person and
 * waits up to 10 minutes, instead of a silent 20 s that a short restart may or may not outlast; a one-shot command
 * names the unreachable server after 2 s.
 */
const SDK_CALL_ATTEMPTS = 6;

/** Connects a client, turning an unreachable server into one line that says what to set. */
export async function connectClient(
  env: NodeJS.ProcessEnv = process.env,
  options: { connectTimeoutMs?: number } = {},
): Promise<{ client: Client; connection: Connection; target: TemporalTarget }> {
  const target = resolveTemporalTarget(env);
  // Bad key settings fail before anything is contacted; payloads are encrypted before they leave this process.
  const hostCodec = resolveHostCodec(env);
  warnOnce(clearPayloadsWarning(hostCodec, target.address));
  // (A caller's own timeout, e.g. completion's 1.5 s, is kept as it is.)
  const listening = (await refuseUnreachable(target)) === true && options.connectTimeoutMs === undefined;
  let connection: Connection;
  try {
    // connect() waits for the channel and asks the server's system info: an unreachable server fails here. One that
    // accepted the probe's connection is there: a slow answer is a busy server or machine, given longer.
    connection = await Connection.connect({
      ...target.connectionOptions,
      connectTimeout: options.connectTimeoutMs ?? (listening ? ANSWER_TIMEOUT_LISTENING : '5s'),
      interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: SDK_CALL_ATTEMPTS }))],
    });
  } catch (error) {
    throw unreachable(target, error, listening);
  }
  // With tracing on (OTEL_* set): one trace per command, its starts and signals carry it to the workflows; the CLI
  // exits through stopTracing().
  const tracing = await startTracing({ env, serviceName: 'taskloop-cli' });
  // Without a key: refuse to store an input in clear where the workers encrypt (platform/codec/keyless-guard.ts).
  const workflowInterceptors = [
    ...(tracing ? [await cliTracingInterceptor()] : []),
    ...(hostCodec.keys ? [] : [keylessClientGuard(connection.workflowService, target.namespace)]),
  ];
  const interceptors = { workflow: workflowInterceptors };
  const dataConverter = { payloadCodecs: [hostCodec.codec] };
  return {
    client: new Client({ connection, namespace: target.namespace, interceptors, dataConverter }),
    connection,
    target,
  };
}

let warned = false;
/** A command that connects twice (the demo) says it once. */
function warnOnce(warning: string | undefined): void {
  if (!warning || warned) return;
  warned = true;
  process.stderr.write(`${warning}\n`);
}

/**
 * How long a server that accepted a TCP connection has to answer the first call: a frontend under load (thousands of
 * tasks, or many commands at once on a small machine) took over 5 s in the soak, and was then called unreachable.
 */
const ANSWER_TIMEOUT_LISTENING = '20s';

/**
 * Fails in milliseconds when the address refuses or does not resolve (gRPC would wait its whole timeout). Returns
 * whether something accepted the connection (true), or 'unknown' (a proxy, a silent network).
 */
export async function refuseUnreachable(target: TemporalTarget): Promise<true | 'unknown'> {
  // Through a proxy the frontend's own address is not ours to dial.
  if (target.connectionOptions.proxy) return 'unknown';
  const probe = await probeAddress(target.address);
  if (probe.reachable === false) throw unreachable(target, probe.error);
  const tlsOptions = target.connectionOptions.tls;
  if (probe.reachable === true && tlsOptions) {
    const serverName = typeof tlsOptions === 'object' ? tlsOptions.serverNameOverride : undefined;
    const handshake = await probeTls(target.address, serverName);
    if (handshake.reachable === false) throw unreachable(target, handshake.error);
  }
  return probe.reachable;
}

/** One sentence: where, why in a few words, and what to do. */
export function unreachable(target: TemporalTarget, error: unknown, listening = false): ConnectionError {
  const { reason, fix } = describeConnectFailure(error);
  // Something listens there: a deadline is a server (or this machine) too busy to answer, not a wrong address.
  if (listening && reason === 'no answer in time')
    return new ConnectionError(
      `Temporal at ${target.address} (namespace ${target.namespace}) accepted the connection but did not answer within ${ANSWER_TIMEOUT_LISTENING}: it, or this machine, is overloaded; try again, and if it persists check the server's load and logs (or that ${target.address} is a Temporal frontend).`,
    );
  return new ConnectionError(
    `cannot reach Temporal at ${target.address} (namespace ${target.namespace}): ${reason}; ${fix}.`,
  );
}
