// Prints one eval table for several report.json files, their arms joined per label (domain/eval/join-reports.ts):
//   npx tsx scripts/eval/join-reports.ts [--leave-out TEXT] A/report.json B/report.json ...
// e.g. a tier run in parts, with the peer's reports (bench/peer/mini-swe-agent.ts) beside taskloop's.
import { readFile } from 'node:fs/promises';
import { formatEvalReport } from '../../client/eval/report-output.js';
import { joinReports } from '../../domain/eval/join-reports.js';
import { buildEvalReport, type EvalReport } from '../../domain/eval/report.js';

const args = process.argv.slice(2);
const at = args.indexOf('--leave-out');
const leaveOut = at === -1 ? undefined : args.splice(at, 2)[1];
if (args.length === 0 || leaveOut === '') {
  console.error('usage: npx tsx scripts/eval/join-reports.ts [--leave-out TEXT] A/report.json B/report.json ...');
  process.exit(2);
}
const reports = await Promise.all(args.map(async (file) => JSON.parse(await readFile(file, 'utf8')) as EvalReport));
const arms = joinReports(reports, leaveOut === undefined ? undefined : (label) => label.includes(leaveOut));
console.log(formatEvalReport(buildEvalReport(arms)));
