// Builds the pinned Temporal server and its SQL tool from Go modules into the per-machine cache, once.
import { execa } from 'execa';
import { access, cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { clusterBinaries, TEMPORAL_SERVER_MODULE, TEMPORAL_SERVER_VERSION, type ClusterBinaries } from './pins.js';

export class ClusterInstallError extends Error {
  override name = 'ClusterInstallError';
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/** True when a complete build is cached: the marker, both binaries, and the schemas. */
export async function clusterIsInstalled(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const bin = clusterBinaries(env);
  for (const file of [bin.marker, bin.server, bin.sqlTool, path.join(bin.schemaDir, 'temporal', 'schema.sql')])
    if (!(await exists(file))) return false;
  return true;
}

/** The cached build, built first when missing (`go` must be on PATH; Go's own caches make a rebuild quick). */
export async function installCluster(
  options: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): Promise<ClusterBinaries> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => undefined);
  const bin = clusterBinaries(env);
  if (await clusterIsInstalled(env)) {
    log(`Temporal server ${TEMPORAL_SERVER_VERSION}: cached in ${bin.dir}`);
    return bin;
  }
  const go = await execa('go', ['env', 'GOMODCACHE'], { env, reject: false });
  if (go.failed)
    throw new ClusterInstallError(
      `building the Temporal server needs Go (the \`go\` command was not found or failed: ${go.shortMessage}); install Go 1.24 or newer from https://go.dev/dl/ and run again`,
    );
  await rm(bin.dir, { recursive: true, force: true });
  const gobin = path.join(bin.dir, 'build');
  await mkdir(gobin, { recursive: true });
  const packages = ['cmd/server', 'cmd/tools/sql'].map(
    (pkg) => `${TEMPORAL_SERVER_MODULE}/${pkg}@v${TEMPORAL_SERVER_VERSION}`,
  );
  log(
    `Temporal server ${TEMPORAL_SERVER_VERSION}: building with go install (about 8 minutes on 2 cores the first time)`,
  );
  const build = await execa('go', ['install', ...packages], {
    env: { ...env, GOBIN: gobin, CGO_ENABLED: '0' },
    reject: false,
    all: true,
  });
  if (build.failed)
    throw new ClusterInstallError(`go install ${packages.join(' ')} failed:\n${(build.all ?? '').slice(-4000)}`);
  await rename(path.join(gobin, 'server'), bin.server);
  await rename(path.join(gobin, 'sql'), bin.sqlTool);
  await rm(gobin, { recursive: true, force: true });
  // The schemas come with the module's source; copied, so a later `go clean -modcache` cannot take them.
  const moduleDir = path.join(go.stdout.trim(), `${TEMPORAL_SERVER_MODULE}@v${TEMPORAL_SERVER_VERSION}`);
  await cp(path.join(moduleDir, 'schema', 'postgresql', 'v12'), bin.schemaDir, { recursive: true });
  await execa('chmod', ['-R', 'u+w', bin.dir]); // the module cache is read-only; the copy must stay removable
  await writeFile(bin.marker, `${TEMPORAL_SERVER_VERSION}\n`);
  log(`Temporal server ${TEMPORAL_SERVER_VERSION}: built into ${bin.dir}`);
  return bin;
}
