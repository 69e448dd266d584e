// The pinned self-hosted Temporal server (built from Go modules) and where its build is cached on this machine.
import os from 'node:os';
import path from 'node:path';

/** The newest Temporal server release that builds here (`go install`, about 8 minutes on 2 cores). */
export const TEMPORAL_SERVER_VERSION = '1.29.1';
export const TEMPORAL_SERVER_MODULE = 'go.temporal.io/server';

/** The per-machine cache of cluster builds: outside any clone, so clones and CI runs share it (like the local model). */
export function clusterCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME?.trim() || path.join(os.homedir(), '.cache');
  return path.join(base, 'taskloop', 'cluster');
}

export interface ClusterBinaries {
  /** `temporal-<version>/`: filled by one build, complete when `installed` is there. */
  dir: string;
  server: string;
  sqlTool: string;
  /** The PostgreSQL 12+ schemas of this server version (`temporal/`, `visibility/`, each with `versioned/`). */
  schemaDir: string;
  /** Written last: a folder without it is an interrupted build. */
  marker: string;
}

export function clusterBinaries(env: NodeJS.ProcessEnv = process.env): ClusterBinaries {
  const dir = path.join(clusterCacheDir(env), `temporal-${TEMPORAL_SERVER_VERSION}`);
  return {
    dir,
    server: path.join(dir, 'temporal-server'),
    sqlTool: path.join(dir, 'temporal-sql-tool'),
    schemaDir: path.join(dir, 'schema', 'postgresql', 'v12'),
    marker: path.join(dir, 'installed'),
  };
}
