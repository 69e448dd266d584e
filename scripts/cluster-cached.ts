// For .ci/run: exits 0 when the cluster tier can run without building Temporal (the server build is in the
// per-machine cache and PostgreSQL is installed or installable); else prints why it is skipped and exits 1.
import { clusterIsInstalled } from '../platform/cluster/install.js';
import { clusterBinaries } from '../platform/cluster/pins.js';
import { findPostgres } from '../platform/cluster/postgres.js';

const reasons: string[] = [];
if (!(await clusterIsInstalled()))
  reasons.push(
    `the Temporal server build is not cached in ${clusterBinaries().dir} (building it takes about 8 minutes on 2 cores: run \`npm run test:cluster\` once)`,
  );
if (!(await findPostgres()) && process.getuid?.() !== 0)
  reasons.push('PostgreSQL is not installed and this is not root (apt-get install -y postgresql)');
if (reasons.length > 0) {
  console.log(`cluster tier skipped: ${reasons.join('; ')}`);
  process.exit(1);
}
console.log(`cluster tier: Temporal build cached in ${clusterBinaries().dir}`);
