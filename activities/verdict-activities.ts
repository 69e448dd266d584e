// The review's and the judge's activities: the rules on the change and, when the task names a model, its verdict.
import type { JudgeResult, ModelVerdict, ReviewResult } from '../domain/records.js';
import { judgeAttempt } from '../domain/judge.js';
import { heartbeatWhile } from './heartbeat-while.js';
import { judgeModelVerdict, judgeWithModel, reviewWithModel } from './models/model-verdicts.js';
import { runVerdictCalls } from './models/verdict-call.js';
import { reviewChanges } from './review/index.js';
import { sandboxPolicyFor, type WorkerSandbox } from './sandbox/index.js';
import { resolveSecretValues } from './secret-values.js';
import type { AttemptRef, JudgeInput, JudgeModelInput, ReviewInput } from './task-activity-types.js';

export interface VerdictDeps {
  hostId: string;
  /** Where relative `scripted:` model files resolve (the worker's working folder). */
  cwd?: string;
  workerSandbox: WorkerSandbox;
  /** The attempt's artifact folder (per workflow run and attempt). */
  artifactDir: (ref: AttemptRef) => string;
}

export function createVerdictActivities(deps: VerdictDeps) {
  const modelIn = <M extends object>(model: M) => ({ ...model, cwd: deps.cwd ?? process.cwd() });
  return {
    async reviewChanges(input: ReviewInput): Promise<ReviewResult> {
      const review = await heartbeatWhile(() =>
        reviewChanges({
          worktreePath: input.worktreePath,
          baseSha: input.baseSha,
          allowedPaths: input.allowedPaths,
          allowTestEdits: input.allowTestEdits,
          secretValues: resolveSecretValues(input.secretEnvNames),
          artifactDir: deps.artifactDir(input),
          hostId: deps.hostId,
          sandbox: sandboxPolicyFor(deps.workerSandbox),
          snapshot: input.snapshot,
        }),
      );
      if (!input.model) return review;
      const model = modelIn(input.model);
      return runVerdictCalls(model, (call) =>
        reviewWithModel({
          review,
          goal: input.goal ?? '',
          model,
          secretValues: resolveSecretValues(input.secretEnvNames),
          call,
        }),
      );
    },

    /**
     * Judges the attempt by the rules (domain/judge.ts) and, when the task names a judge model, merges its verdict: the
     * judge node of runs started before the patch decisions-in-workflow (later ones judge by the rules in the workflow
     * and ask askJudgeModel only for the model's verdict). Goes with that patch's old branch.
     */
    async judgeChange(input: JudgeInput): Promise<JudgeResult> {
      const { tests, review, acceptanceTests } = input;
      const judge = judgeAttempt({ tests, review, acceptanceTests });
      if (!input.model) return judge;
      const model = modelIn(input.model);
      return runVerdictCalls(model, (call) =>
        judgeWithModel({
          judge,
          goal: input.goal,
          test: { counts: tests.counts, stdoutExcerpt: tests.stdoutExcerpt },
          diffPath: input.diffPath,
          model,
          secretValues: resolveSecretValues(input.secretEnvNames),
          call,
        }),
      );
    },

    /** The judge model's verdict on the attempt, given what the rules the workflow ran found: merged there. */
    async askJudgeModel(input: JudgeModelInput): Promise<ModelVerdict> {
      const model = modelIn(input.model);
      return runVerdictCalls(model, (call) =>
        judgeModelVerdict({
          checks: input.checks,
          goal: input.goal,
          test: input.test,
          diffPath: input.diffPath,
          model,
          secretValues: resolveSecretValues(input.secretEnvNames),
          call,
        }),
      );
    },
  };
}
