import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  clusterPortNames,
  renderDynamicConfig,
  renderServerConfig,
  type ClusterPorts,
} from '../../../../platform/cluster/server-config.js';

const ports = Object.fromEntries(
  clusterPortNames.map((name, index) => [name, 20_000 + index]),
) as unknown as ClusterPorts;

describe('the cluster server config', () => {
  it('keeps history and visibility in the cluster PostgreSQL on its port, with SQL visibility', () => {
    const config = parse(renderServerConfig(ports, '/data/config/dynamicconfig.yaml'));
    expect(config.persistence.visibilityStore).toBe('postgres-visibility');
    for (const store of Object.values(config.persistence.datastores) as { sql: Record<string, unknown> }[]) {
      expect(store.sql).toMatchObject({ pluginName: 'postgres12', connectAddr: `127.0.0.1:${ports.postgres}` });
    }
    expect(config.services.frontend.rpc).toMatchObject({ grpcPort: ports.frontend, httpPort: ports.frontendHttp });
    expect(config.global.metrics.prometheus.listenAddress).toBe(`127.0.0.1:${ports.metrics}`);
    expect(config.dynamicConfigClient.filepath).toBe('/data/config/dynamicconfig.yaml');
  });

  it('turns on the message and versioning APIs taskloop uses, and takes extra values in the server format', () => {
    const dynamic = parse(renderDynamicConfig({ 'matching.wv.VersionDrainageStatusRefreshInterval': '2s' }));
    expect(dynamic['frontend.enableExecuteMultiOperation']).toEqual([{ value: true, constraints: {} }]);
    expect(dynamic['system.enableDeploymentVersions']).toEqual([{ value: true, constraints: {} }]);
    expect(dynamic['matching.wv.VersionDrainageStatusRefreshInterval']).toEqual([{ value: '2s', constraints: {} }]);
  });
});
