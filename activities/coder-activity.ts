// The coder's activity: reads what the attempt starts from (a saved transcript, the agent, what the project learned),
// builds this try's model provider and runs the coder loop (activities/coder/run-coder.ts) with its in-attempt tests.
import path from 'node:path';
import { Context } from '@temporalio/activity';
import { agentLabel, type AgentVersion, type SelectedAgent } from '../domain/agents.js';
import type { CoderResult } from '../domain/records.js';
import { samplingForAttempt } from '../domain/retry-sampling.js';
import { samplingForCandidate } from '../domain/samples.js';
import { heartbeatAndSignal } from './activity-context.js';
import { heartbeatWhile } from './heartbeat-while.js';
import { loadProgress, TRANSCRIPT_NAME, type CoderHeartbeat } from './coder/progress.js';
import { buildLearningSections } from './coder/learning-sections.js';
import { reviewRequestSection } from './coder/review-request.js';
import { runCoder } from './coder/run-coder.js';
import { listRepoFiles } from './coder/repo-map.js';
import { DEFAULT_MAX_TEST_RUNS } from './coder/tools/run-tests-tool.js';
import type { InAttemptTests } from './coder/tools/test-runner.js';
import { loadAgent } from './models/agent-registry.js';
import { coderModelSettings } from './models/provider-env.js';
import { createModelProvider } from './models/router.js';
import { processRecordsDir, sandboxPolicyFor, type WorkerSandbox } from './sandbox/index.js';
import { refuseSecretInGoal } from './secret-in-task.js';
import { resolveSecretValues } from './secret-values.js';
import type { AttemptRef, CoderInput } from './task-activity-types.js';

export interface CoderDeps {
  hostId: string;
  workDir: string;
  /** Where relative `scripted:` model files resolve (the worker's working folder). */
  cwd?: string;
  workerSandbox: WorkerSandbox;
  /** The attempt's artifact folder (per workflow run and attempt): its transcript and logs. */
  artifactDir: (ref: AttemptRef) => string;
}

export function createCoderActivity(deps: CoderDeps) {
  return {
    /**
     * Runs the coder; a retry of this activity (or a re-run of the node) resumes from the transcript saved after each
     * turn.
     */
    async runCoder(input: CoderInput): Promise<CoderResult> {
      refuseSecretInGoal(input);
      const { info } = Context.current();
      const dir = deps.artifactDir(input);
      const details = info.heartbeatDetails as CoderHeartbeat | undefined;
      // The worktree's listing (for the first message, by `git ls-files`) runs beside the reads below.
      const repoFiles = listRepoFiles(input.worktreePath);
      // No process outlives the activity: the listing is awaited before it ends, whether runCoder used it or not (a
      // resumed run has its first messages already) and whatever failed.
      const listed = repoFiles.then(
        () => undefined,
        () => undefined,
      );
      try {
        const [resume, { agent, prompt }, learning, review] = await readCoderStart(input, dir, details);
        const turnsBefore = resume?.progress.turnsConsumed ?? 0;
        const provider = await coderProvider(input, agent.parameters, turnsBefore, deps.cwd ?? process.cwd());
        // Scripted turns are a fixed sequence that cannot react to a refusal: only a model is coached.
        const coached = !input.modelSpec.startsWith('scripted:');
        const result = await runCoder({
          worktreePath: input.worktreePath,
          goal: input.goal,
          provider,
          maxSteps: input.maxSteps,
          previousAttempts: input.previousAttempts,
          hint: input.hint,
          secretValues: resolveSecretValues(input.secretEnvNames),
          artifactDir: dir,
          hostId: deps.hostId,
          allowance: input.allowance,
          systemPrompt: prompt,
          agent: coderAgent(agent),
          tests: input.tests && inAttemptTests(input, input.tests, dir, deps),
          // A reviewer's request comes first: it is what this round is for.
          extraSections: review ? [review, ...learning.sections] : learning.sections,
          ...(coached
            ? { coaching: { refuseTestEdits: input.allowTestEdits === false, refuseEmptyFinish: true } }
            : {}),
          repoFiles,
          resume,
          ...coderModelSettings(process.env, input.modelOptions, agent.parameters.contextWindow),
          ...heartbeatAndSignal(),
        });
        return {
          ...result,
          agent: agentLabel(agent),
          ...(learning.skillsOffered.length > 0 ? { skillsOffered: learning.skillsOffered } : {}),
        };
      } finally {
        await listed;
      }
    },
  };
}

/** This try's model: its turns numbered on from the saved transcript, sampled as this attempt's number says. */
function coderProvider(input: CoderInput, parameters: AgentVersion['parameters'], turnsBefore: number, cwd: string) {
  return createModelProvider(input.modelSpec, {
    role: 'coder',
    startTurn: input.startTurn + turnsBefore,
    cwd,
    // A retry samples differently from the attempts before it (domain/retry-sampling.ts), and each candidate of an
    // attempt after its first from the others (domain/samples.ts).
    parameters: samplingForCandidate(
      samplingForAttempt(parameters, input.previousAttempts.length),
      input.attempt,
      input.candidate,
    ),
  });
}

/** The agent version as the loop sees it: its label, capabilities and, when it names them, context and tools. */
function coderAgent(agent: SelectedAgent) {
  return {
    label: agentLabel(agent),
    capabilities: agent.capabilities,
    ...(agent.context ? { context: agent.context } : {}),
    ...(agent.tools ? { tools: agent.tools } : {}),
    ...(agent.toolCalls ? { toolCalls: agent.toolCalls } : {}),
  };
}

/**
 * What the coder starts from: the transcript an earlier try saved, the agent version and its prompt, and what the
 * project learned. Heartbeats while it reads (the learning query alone may take 5 s on a loaded machine): a retry
 * after a crash is not itself taken for a crash by a short heartbeat timeout. The earlier try's details are kept.
 */
function readCoderStart(input: CoderInput, dir: string, details: CoderHeartbeat | undefined) {
  return heartbeatWhile(
    () =>
      Promise.all([
        // Progress of this attempt exists only when an earlier try (activity retry or node re-run) failed midway.
        loadProgress(details?.transcriptPath ?? path.join(dir, TRANSCRIPT_NAME)),
        loadAgent('coder', { pinned: input.agentVersion }),
        buildLearningSections({
          project: input.project ?? 'default',
          // The skills the attempt's claim read, through the workflow (runs whose claim read none: read now).
          offered: input.skills,
          goal: input.goal,
          adaptations: input.adaptations ?? [],
          worktreePath: input.worktreePath,
          previousAttempts: input.previousAttempts,
        }),
        input.reviewRequest && reviewRequestSection(input.worktreePath, input.reviewRequest),
      ]),
    undefined,
    details,
  );
}

/** The coder's own test runs: the test node's command, sandbox and environment, bounded in number and by the deadline. */
function inAttemptTests(
  input: CoderInput,
  tests: NonNullable<CoderInput['tests']>,
  dir: string,
  deps: CoderDeps,
): InAttemptTests {
  return {
    command: tests.command,
    testEnv: tests.testEnv,
    sandbox: sandboxPolicyFor(deps.workerSandbox, input.sandbox),
    processDir: processRecordsDir(deps.workDir),
    timeoutMs: tests.timeoutMs,
    secretValues: resolveSecretValues(input.secretEnvNames),
    artifactDir: dir,
    hostId: deps.hostId,
    maxRuns: tests.maxRuns ?? DEFAULT_MAX_TEST_RUNS,
    environment: tests.environment,
    deadlineAt: input.allowance?.deadlineAt,
    ...heartbeatAndSignal(),
  };
}
