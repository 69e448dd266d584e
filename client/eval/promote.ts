// `taskloop eval --promote`: reads the registry's coder champion and decides by the eval's figures; a promotion is a
// small text edit of the registry file (the new champion and a history entry with the figures).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseAgentRegistry } from '../../domain/agents.js';
import { decidePromotion, type PromotionDecision } from '../../domain/eval/promotion.js';
import type { ArmResult } from '../../domain/eval/records.js';
import { editRegistryText, promotionRecord } from '../../domain/eval/registry-edit.js';
import { projectRoot } from '../../platform/paths.js';
import { UsageError } from '../cli-errors.js';

/** The registry the workers read: $TASKLOOP_AGENTS_FILE or the checkout's agents/registry.json. */
export const registryFile = (env: NodeJS.ProcessEnv = process.env) =>
  env.TASKLOOP_AGENTS_FILE ?? path.join(projectRoot, 'agents', 'registry.json');

export async function readCoderChampion(file: string): Promise<{ text: string; champion: string; versions: string[] }> {
  const text = await readFile(file, 'utf8').catch((error: Error) => {
    throw new UsageError(
      `taskloop eval: agent registry ${file} cannot be read (${error.message}); set TASKLOOP_AGENTS_FILE`,
    );
  });
  const parsed = parseAgentRegistry(JSON.parse(text));
  if (!parsed.success) throw new UsageError(`taskloop eval: agent registry ${file} is invalid: ${parsed.error}`);
  const coder = parsed.data.coder;
  if (!coder) throw new UsageError(`taskloop eval: agent registry ${file} has no coder entry to promote in`);
  return { text, champion: coder.champion, versions: Object.keys(coder.versions) };
}

export async function promoteFromEval(
  results: ArmResult[],
  context: { file: string; evalId: string; suite: string; now: string; seed: number },
): Promise<PromotionDecision> {
  const { text, champion } = await readCoderChampion(context.file);
  const decision = decidePromotion(results, champion, context.seed);
  // Only a promotion changes the registry (champion and history); a kept champion leaves the file untouched and the
  // decision, with its figures, goes into the eval's report.json.
  if (!decision.promote || decision.candidate === undefined) return decision;
  const record = promotionRecord(decision, { at: context.now, evalId: context.evalId, suite: context.suite });
  await writeFile(context.file, editRegistryText(text, record, decision.candidate));
  return decision;
}
