// The reviewer's and judge's model verdicts, merged into the policy results when a model is configured for the
// role. Only the diff's stored artifact and bounded excerpts are sent to the model.
import { readFile } from 'node:fs/promises';
import { agentLabel, type AgentRole } from '../../domain/agents.js';
import type {
  Finding,
  JudgeResult,
  ModelVerdict,
  ReviewResult,
  TestRunResult,
  VerdictUsage,
} from '../../domain/records.js';
import { scrubText } from '../../domain/secrets.js';
import { mergeVerdictReply } from '../../domain/verdict.js';
import { loadAgent } from './agent-registry.js';
import { askForVerdict } from './ask-verdict.js';
import { createModelProvider } from './router.js';
import type { VerdictCall } from './verdict-call.js';

const MAX_DIFF_CHARS = 60_000;
// Estimates run at 4 characters a token; the diff may take half of a window the task sets (the rest: the prompt,
// the evidence and the reply).
const DIFF_SHARE_OF_WINDOW = 0.5;

export interface VerdictModel {
  modelSpec: string;
  /** A version to use instead of the role's champion. */
  agentVersion?: string;
  /** Where relative `scripted:` files resolve. */
  cwd: string;
  /** Turns of this role already used by earlier attempts (scripted models continue after them). */
  startTurn?: number;
  /** The task's `models.<role>.contextWindow`: the diff sent is cut to fit it. */
  contextWindow?: number;
  /** The task's `models.<role>.serverWaitMs`: how long an unreachable server is waited for. */
  serverWaitMs?: number;
}

/** The most diff characters sent: 60,000, or less when the task sets a small context window. */
export function maxDiffChars(contextWindow: number | undefined): number {
  if (contextWindow === undefined) return MAX_DIFF_CHARS;
  return Math.min(MAX_DIFF_CHARS, Math.floor(contextWindow * 4 * DIFF_SHARE_OF_WINDOW));
}

async function readDiff(diffPath: string | undefined, maxChars: number): Promise<string> {
  if (!diffPath) return '(no diff stored)';
  const diff = await readFile(diffPath, 'utf8').catch(() => '(the diff could not be read)');
  return diff.length > maxChars ? `${diff.slice(0, maxChars)}\n[diff cut at ${maxChars} characters]` : diff;
}

const listFindings = (findings: Finding[]) =>
  findings.length === 0 ? 'none' : findings.map((f) => `- [${f.rule}] ${f.file ?? ''} ${f.message}`).join('\n');

/** Asks the role's model; no valid verdict becomes a failing finding (a model problem), never a pass. */
async function verdictOf<T extends { passed: boolean; findings: Finding[] }>(
  role: 'reviewer' | 'judge',
  model: VerdictModel,
  result: T,
  question: string,
  secretValues: string[],
  call?: VerdictCall,
): Promise<T & { agent: string; modelUsage: VerdictUsage }> {
  const { agent, prompt } = await loadAgent(role as AgentRole, { pinned: model.agentVersion });
  const provider = await createModelProvider(model.modelSpec, {
    role,
    cwd: model.cwd,
    startTurn: model.startTurn,
    parameters: agent.parameters,
  });
  const rule = role === 'reviewer' ? 'model_review' : 'model_judge';
  const reply = await askForVerdict({
    provider,
    role,
    systemPrompt: prompt,
    question: scrubText(question, secretValues),
    ...call,
  });
  const modelUsage = { modelSpec: model.modelSpec, ...reply.usage };
  return { ...mergeVerdictReply(result, reply, rule), agent: agentLabel(agent), modelUsage };
}

/** Merges the reviewer model's verdict on the stored diff into the policy review. */
export async function reviewWithModel(input: {
  review: ReviewResult;
  goal: string;
  model: VerdictModel;
  secretValues: string[];
  call?: VerdictCall;
}): Promise<ReviewResult> {
  const { review } = input;
  const question = [
    `# Goal\n${input.goal}`,
    `# Policy findings\n${listFindings(review.findings)}`,
    `# Diff\n${await readDiff(review.diff?.path, maxDiffChars(input.model.contextWindow))}`,
  ].join('\n\n');
  return verdictOf('reviewer', input.model, review, question, input.secretValues, input.call);
}

/** What the judge model is asked: the goal, the rules' checks so far, the test evidence and the diff. */
async function judgeQuestion(input: {
  checks: Pick<JudgeResult, 'evidence' | 'findings'>;
  goal: string;
  test?: Pick<TestRunResult, 'counts' | 'stdoutExcerpt'>;
  diffPath?: string;
  model: VerdictModel;
}): Promise<string> {
  const tests = input.test
    ? `${JSON.stringify(input.test.counts)}\n${input.test.stdoutExcerpt.slice(-4000)}`
    : 'not run';
  return [
    `# Goal\n${input.goal}`,
    `# Checks so far\n${input.checks.evidence.join('\n')}\n${listFindings(input.checks.findings)}`,
    `# Tests\n${tests}`,
    `# Diff\n${await readDiff(input.diffPath, maxDiffChars(input.model.contextWindow))}`,
  ].join('\n\n');
}

/** Merges the judge model's verdict (goal, diff, test evidence) into the rule-based judgment. */
export async function judgeWithModel(input: {
  judge: JudgeResult;
  goal: string;
  test?: Pick<TestRunResult, 'counts' | 'stdoutExcerpt'>;
  diffPath?: string;
  model: VerdictModel;
  secretValues: string[];
  call?: VerdictCall;
}): Promise<JudgeResult> {
  const question = await judgeQuestion({ ...input, checks: input.judge });
  return verdictOf('judge', input.model, input.judge, question, input.secretValues, input.call);
}

/** The judge model's verdict alone, as findings: the workflow judged by the rules and merges it (domain/judge.ts). */
export async function judgeModelVerdict(input: {
  checks: Pick<JudgeResult, 'evidence' | 'findings'>;
  goal: string;
  test: Pick<TestRunResult, 'counts' | 'stdoutExcerpt'>;
  diffPath?: string;
  model: VerdictModel;
  secretValues: string[];
  call?: VerdictCall;
}): Promise<ModelVerdict> {
  const question = await judgeQuestion(input);
  const verdict = { passed: true, findings: [] };
  return verdictOf('judge', input.model, verdict, question, input.secretValues, input.call);
}
