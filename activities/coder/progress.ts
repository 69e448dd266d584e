// The coder's progress after each turn (transcript + counters), saved as artifacts so a retried coder activity
// resumes where the crashed one stopped instead of asking the model again for turns it already answered.
import path from 'node:path';
import type { ArtifactRef, CoderTelemetry } from '../../domain/records.js';
import { scrubSecrets } from '../../domain/secrets.js';
import { writeArtifact } from '../artifacts.js';
import type { ChatMessage } from '../models/types.js';
import { readText } from '../small-files.js';

export const TRANSCRIPT_NAME = 'transcript.json';
const PROGRESS_NAME = 'coder-progress.json';

/** What a resumed run needs besides the transcript. */
export interface CoderProgress {
  /** Turns completed (model reply + its tool calls). */
  step: number;
  turnsConsumed: number;
  telemetry: CoderTelemetry;
  changedFiles: string[];
  /** The finish summary, when the last turn called finish (a resumed run then returns at once). */
  finished?: string;
  /** Models the server said answered that differ from the one asked for. */
  answeredBy?: string[];
}

/**
 * Heartbeat details of the coder activity: the last completed step, where its transcript is, and what it has spent
 * so far with the last model error (`taskloop status` shows them while the node runs).
 */
export interface CoderHeartbeat {
  step: number;
  transcriptPath: string;
  telemetry?: CoderTelemetry;
  lastModelError?: string;
}

/** Saves the transcript (for people) and the progress with its own copy of the messages (one atomic file to resume from). */
export async function saveProgress(input: {
  dir: string;
  hostId: string;
  messages: ChatMessage[];
  progress: CoderProgress;
  secretValues: string[];
}): Promise<ArtifactRef> {
  const messages = scrubSecrets(input.messages, input.secretValues);
  // Two separate files, each written atomically: written side by side.
  const [transcript] = await Promise.all([
    writeArtifact({
      dir: input.dir,
      name: TRANSCRIPT_NAME,
      content: JSON.stringify(messages, null, 2),
      hostId: input.hostId,
      secretValues: input.secretValues,
    }),
    writeArtifact({
      dir: input.dir,
      name: PROGRESS_NAME,
      content: JSON.stringify(scrubSecrets({ ...input.progress, messages }, input.secretValues)),
      hostId: input.hostId,
      secretValues: input.secretValues,
    }),
  ]);
  return transcript;
}

export interface SavedProgress {
  messages: ChatMessage[];
  progress: CoderProgress;
}

/** Loads the saved progress next to `transcriptPath`; undefined when there is none or it cannot be read. */
export async function loadProgress(transcriptPath: string): Promise<SavedProgress | undefined> {
  try {
    const saved = JSON.parse(
      await readText(path.join(path.dirname(transcriptPath), PROGRESS_NAME)),
    ) as CoderProgress & { messages: ChatMessage[] };
    const { messages, ...progress } = saved;
    // Step 0 is a run whose first call failed: resumed for its counts (the failed requests stay counted).
    if (!Number.isInteger(progress.step) || progress.step < 0 || !Array.isArray(messages)) return undefined;
    return { messages, progress };
  } catch {
    // A missing or half-written file means there is nothing safe to resume from: start over.
    return undefined;
  }
}
