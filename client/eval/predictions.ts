// The predictions file the SWE-bench harness reads, one per arm: each instance's committed change as a unified diff
// against its base (what `git apply` applies to a checkout of base_commit), or an empty patch when nothing was committed.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ArmResult } from '../../domain/eval/records.js';
import { predictionModelName, predictionsJsonl, type Prediction } from '../../domain/eval/swe-bench.js';
import { git } from './git.js';
import type { ResolvedInstance } from './resolve-instances.js';

// Binary changes whole, no renames (the harness's `git apply` and `patch` fallback read plain hunks), a/ b/ prefixes
// whatever the user's diff settings say.
const diffArgs = [
  '-c',
  'diff.noprefix=false',
  '-c',
  'diff.mnemonicPrefix=false',
  'diff',
  '--binary',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--no-renames',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];

/** The committed change of one verified run as a unified diff against its base; empty when nothing was committed. */
export async function modelPatchOf(instance: ResolvedInstance, sha: string | undefined): Promise<string> {
  if (sha === undefined) return '';
  const diff = await git(instance.repo, [...diffArgs, instance.baseSha, sha, '--']);
  if (diff === undefined) throw new Error(`cannot diff ${instance.baseSha}..${sha} in ${instance.repo}`);
  return diff === '' ? '' : `${diff}\n`;
}

/**
 * The coder version an arm ran: the one it pinned, else the one its runs recorded (`coder/coder-1`), else the
 * registry's champion when the eval was planned. Never the word `champion`: two evals whose champions differ must
 * file their predictions under different names.
 */
export function armAgentVersion(result: ArmResult, champion: string): string {
  const recorded = result.runs.find((run) => run.agent !== undefined)?.agent;
  return result.arm.agent ?? recorded?.replace(/^coder\//, '') ?? champion;
}

/** Writes `predictions-<arm>.jsonl` per arm into `dir`; returns the paths. `champion`: the registry's coder champion. */
export async function writePredictions(
  results: readonly ArmResult[],
  instances: readonly ResolvedInstance[],
  dir: string,
  champion: string,
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (const result of results) {
    const predictions: Prediction[] = [];
    const name = predictionModelName({ ...result.arm, agent: armAgentVersion(result, champion) });
    for (const run of result.runs) {
      const instance = instances.find((candidate) => candidate.id === run.instanceId);
      if (!instance) continue;
      const sha = run.verification.checked === 'commit' ? run.verification.sha : undefined;
      predictions.push({
        instance_id: run.instanceId,
        model_name_or_path: name,
        model_patch: await modelPatchOf(instance, sha),
      });
    }
    const file = path.join(dir, `predictions-${result.arm.id}.jsonl`);
    await writeFile(file, predictionsJsonl(predictions));
    files.push(file);
  }
  return files;
}
