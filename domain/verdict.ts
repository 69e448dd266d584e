// The structured verdict a reviewer or judge model returns, validated; and how it merges with the policy result.
import { z } from 'zod';
import type { Finding } from './records.js';

export const verdictSchema = z.object({
  verdict: z.enum(['pass', 'fail']),
  findings: z
    .array(
      z.object({ file: z.string().optional(), line: z.number().int().min(1).optional(), reason: z.string().min(1) }),
    )
    .default(() => []),
});
export type Verdict = z.infer<typeof verdictSchema>;

/** The one JSON object in a reply (bare, or inside a ```json fence), validated; the error says what was wrong. */
export function parseVerdict(text: string): { success: true; data: Verdict } | { success: false; error: string } {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  const candidate = (fenced ?? text).trim();
  const start = candidate.indexOf('{');
  const end = candidate.lastIndexOf('}');
  if (start === -1 || end < start) return { success: false, error: 'the reply holds no JSON object' };
  let json: unknown;
  try {
    json = JSON.parse(candidate.slice(start, end + 1));
  } catch (error) {
    return { success: false, error: `malformed JSON (${(error as Error).message})` };
  }
  const result = verdictSchema.safeParse(json);
  if (result.success) return { success: true, data: result.data };
  return {
    success: false,
    error: result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; '),
  };
}

/** A model's verdict as findings under `rule`; a fail with no findings still yields one, so it is never silent. */
export function verdictFindings(verdict: Verdict, rule: string): Finding[] {
  const findings: Finding[] = verdict.findings.map((finding) => ({
    rule,
    message: finding.reason,
    ...(finding.file === undefined ? {} : { file: finding.file }),
    ...(finding.line === undefined ? {} : { line: finding.line }),
  }));
  if (verdict.verdict === 'fail' && findings.length === 0)
    findings.push({ rule, message: 'the model judged the change a fail without giving a reason' });
  return verdict.verdict === 'fail' ? findings : [];
}

/** Merges a model verdict into a policy result: it passes only when both pass. */
export function mergeVerdict<T extends { passed: boolean; findings: Finding[] }>(
  result: T,
  verdict: Verdict,
  rule: string,
): T {
  const findings = verdictFindings(verdict, rule);
  return {
    ...result,
    passed: result.passed && verdict.verdict === 'pass',
    findings: [...result.findings, ...findings],
  };
}

/** A model's answer: a valid verdict, or the problem that left it without one. */
export type VerdictReply = { ok: true; verdict: Verdict } | { ok: false; problem: string };

/**
 * Merges a model's answer into a policy result (the reviewer's into the review, the judge's into the rule judge): a
 * valid verdict as mergeVerdict does, no valid verdict as a failing `model_verdict_invalid` finding, never a pass.
 */
export function mergeVerdictReply<T extends { passed: boolean; findings: Finding[] }>(
  result: T,
  reply: VerdictReply,
  rule: string,
): T {
  if (reply.ok) return mergeVerdict(result, reply.verdict, rule);
  const finding: Finding = { rule: 'model_verdict_invalid', message: reply.problem };
  return { ...result, passed: false, findings: [...result.findings, finding] };
}
