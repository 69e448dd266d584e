// Reads an attempt's artifact (transcript, diff) where it is: on this machine's disk, where the worker that ran the
// attempt wrote it. An artifact on another host is named (host and path), not fetched: transcripts and diffs stay out
// of Temporal payloads (docs/trajectories.md says why and how to see them there).
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ArtifactRef } from '../../domain/records.js';
import { scrubText, secretValuesIn } from '../../domain/secrets.js';
import type { ArtifactText } from '../../domain/trajectory/trajectory.js';

/** The artifacts a trajectory reads; a record naming any other file is not followed. */
const readable = new Set(['transcript.json', 'diff.patch']);
/** Most bytes read of one artifact: a long run's transcript is a few MB; the page shows excerpts of it. */
export const MAX_ARTIFACT_BYTES = 16 * 1024 * 1024;

/**
 * The artifact's text, scrubbed again with this process's secrets (the worker scrubbed it with its own when it wrote
 * it), or why it cannot be read here.
 */
export async function readArtifactText(ref: ArtifactRef, env: NodeJS.ProcessEnv = process.env): Promise<ArtifactText> {
  const where = `host ${ref.hostId}, ${ref.path}`;
  if (
    !readable.has(path.basename(ref.path)) ||
    !path.isAbsolute(ref.path) ||
    !ref.path.includes(`${path.sep}artifacts${path.sep}`)
  )
    return { missing: `not read: ${where} is not a transcript or diff in an artifacts folder` };
  let size: number;
  try {
    const info = await stat(ref.path);
    if (!info.isFile()) return { missing: `not read: ${where} is not a file` };
    size = info.size;
  } catch {
    return {
      missing: `not on this machine (${where}): run taskloop show on host ${ref.hostId}, where its worker keeps its artifacts, or it was removed by taskloop clean`,
    };
  }
  if (size > MAX_ARTIFACT_BYTES)
    return { missing: `too large to show (${size} bytes, at most ${MAX_ARTIFACT_BYTES}): ${where}` };
  const { declared, detected } = secretValuesIn(env, []);
  return { text: scrubText(await readFile(ref.path, 'utf8'), [...declared, ...detected]) };
}
