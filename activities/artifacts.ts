// Artifacts: large texts (logs, diffs, JUnit XML) stored on the host's disk; only an `ArtifactRef` travels through Temporal.
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import type { ArtifactRef } from '../domain/records.js';
import { scrubText } from '../domain/secrets.js';
import { scrubForSink } from './secret-values.js';
import { writeFileAtomic } from './small-files.js';
import { candidateSuffix } from '../domain/samples.js';

const unsafeChars = /[^A-Za-z0-9._-]/g;

/**
 * Turns any id (a workflow id may hold `/`, spaces, `..`) into one safe folder name.
 * Names that had to change get a short hash of the original, so `a/b` and `a_b` never share a folder.
 */
export function toSafeName(id: string): string {
  const cleaned = id.replace(unsafeChars, '_').replace(/^\.+/, '_').slice(0, 100);
  if (cleaned === id && cleaned.length > 0) return cleaned;
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 8);
  return `${cleaned}-${hash}`;
}

/** Checks that `attempt` is a positive integer; names the field and the fix otherwise. */
export function assertAttempt(attempt: number): void {
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw ApplicationFailure.create({
      message: `attempt must be a positive integer (1, 2, ...), got ${String(attempt)}: pass the workflow's attempt number`,
      type: 'InvalidAttempt',
      nonRetryable: true,
    });
  }
}

/**
 * The folder for one attempt's artifacts: `<workDir>/artifacts/<safe workflowId>/a<attempt>`; a candidate after the
 * first (domain/samples.ts) has its own, `a<attempt>c<candidate>`, so no draw resumes from or overwrites another's.
 */
export function artifactDirFor(workDir: string, workflowId: string, attempt: number, candidate?: number): string {
  assertAttempt(attempt);
  return path.resolve(workDir, 'artifacts', toSafeName(workflowId), `a${attempt}${candidateSuffix(candidate)}`);
}

/**
 * Writes one artifact atomically (temp file + rename), creating the folder; a retried write replaces it whole.
 * Every artifact passes the scrubber on the way to disk, whatever its caller already removed.
 */
export async function writeArtifact(input: {
  dir: string;
  name: string;
  content: string;
  hostId: string;
  /**
   * The secret values the caller resolved from the worker's environment (resolveSecretValues, which includes every
   * secret-named variable): used instead of reading the environment again (one read is a few hundred microseconds).
   */
  secretValues?: string[];
}): Promise<ArtifactRef> {
  const { dir, name, hostId } = input;
  const content = input.secretValues ? scrubText(input.content, input.secretValues) : scrubForSink(input.content);
  if (name.length === 0 || name !== path.basename(name) || name === '.' || name === '..') {
    throw ApplicationFailure.create({
      message: `artifact name must be a plain file name, got ${JSON.stringify(name)}: pass a name without folders, e.g. "diff.patch"`,
      type: 'InvalidArtifactName',
      nonRetryable: true,
    });
  }
  const target = path.join(dir, name);
  const temp = path.join(dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  // An attempt writes several artifacts to one folder: only the first write (ENOENT) creates it.
  await writeFileAtomic(target, content, temp);
  return { hostId, path: target, bytes: Buffer.byteLength(content, 'utf8') };
}
