// The Temporal server's configuration for taskloop's one-host cluster: PostgreSQL for history and SQL visibility,
// every service in one process, and the dynamic config taskloop needs. Pure: ports and folders in, YAML out.
import { stringify } from 'yaml';

export interface ClusterPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
  /** Prometheus metrics of the server (`/metrics`): what docs/deploying.md says to alert on. */
  metrics: number;
  postgres: number;
}

export const clusterPortNames: readonly (keyof ClusterPorts)[] = [
  'frontend',
  'frontendHttp',
  'frontendMembership',
  'history',
  'historyMembership',
  'matching',
  'matchingMembership',
  'worker',
  'workerMembership',
  'metrics',
  'postgres',
];

/** History shards: fixed when the database is made; 4 suits one host (the development configs use 4). */
export const HISTORY_SHARDS = 4;

function sqlStore(databaseName: string, port: number, maxConns: number) {
  return {
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `127.0.0.1:${port}`,
      connectProtocol: 'tcp',
      user: 'postgres',
      password: '',
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  };
}

const service = (grpcPort: number, membershipPort: number, httpPort?: number) => ({
  rpc: { grpcPort, membershipPort, bindOnLocalHost: true, ...(httpPort ? { httpPort } : {}) },
});

/** `config/development.yaml` for `temporal-server --root <dir> --env development start`. */
export function renderServerConfig(ports: ClusterPorts, dynamicConfigFile: string): string {
  return stringify({
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: HISTORY_SHARDS,
      datastores: {
        'postgres-default': sqlStore('temporal', ports.postgres, 20),
        'postgres-visibility': sqlStore('temporal_visibility', ports.postgres, 10),
      },
    },
    global: {
      membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' },
      metrics: {
        prometheus: { framework: 'tally', timerType: 'histogram', listenAddress: `127.0.0.1:${ports.metrics}` },
      },
    },
    services: {
      frontend: service(ports.frontend, ports.frontendMembership, ports.frontendHttp),
      history: service(ports.history, ports.historyMembership),
      matching: service(ports.matching, ports.matchingMembership),
      worker: service(ports.worker, ports.workerMembership),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: {
          enabled: true,
          initialFailoverVersion: 1,
          rpcName: 'frontend',
          rpcAddress: `127.0.0.1:${ports.frontend}`,
        },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: dynamicConfigFile, pollInterval: '10s' },
  });
}

/**
 * What taskloop needs beyond the server's defaults: the message and versioning APIs it uses (updates, update-with-start,
 * Worker Deployment Versioning), search attributes usable as soon as they are added, and `extra` (tests shorten the
 * drainage waits). History size and count limits stay at the server's defaults (warn at 10 Ki events, fail at 50 Ki):
 * taskloop's long-lived workflows continue as new well before them, and the soak checks it.
 */
export function renderDynamicConfig(extra: Record<string, unknown> = {}): string {
  const values: Record<string, unknown> = {
    'frontend.enableUpdateWorkflowExecution': true,
    'frontend.enableUpdateWorkflowExecutionAsyncAccepted': true,
    'frontend.enableExecuteMultiOperation': true,
    'frontend.workerVersioningDataAPIs': true,
    'frontend.workerVersioningWorkflowAPIs': true,
    'frontend.workerVersioningRuleAPIs': true,
    'system.enableDeploymentVersions': true,
    'system.enableDeployments': true,
    'system.forceSearchAttributesCacheRefreshOnRead': true,
    'limit.maxIDLength': 255,
    ...extra,
  };
  return stringify(
    Object.fromEntries(Object.entries(values).map(([key, value]) => [key, [{ value, constraints: {} }]])),
  );
}
