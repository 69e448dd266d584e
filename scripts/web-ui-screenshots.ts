// Screenshots of the Temporal Web UI pages an operator uses, from a real headless Chromium, into docs/images/:
// the workflow list filtered by taskloop's search attributes, one task's page with its activity summaries, and a
// paused task's User Metadata, whose current details say PAUSED.
// Usage: npx tsx scripts/web-ui-screenshots.ts [OUT_DIR]   (needs chromium; CHROMIUM=path picks another browser)
import path from 'node:path';
import { projectRoot } from '../platform/paths.js';
import { captureWebUi } from './web-ui/capture.js';

const outDir = path.resolve(process.argv[2] ?? path.join(projectRoot, 'docs', 'images'));
const capture = await captureWebUi({ outDir, log: (line) => console.log(line) });
for (const page of capture.pages) console.log(`${page.name}: ${page.text.length} characters of text`);
