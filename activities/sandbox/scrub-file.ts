// Copies a log into an artifact with secret values removed, chunk by chunk, so a huge log is never held whole.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { MIN_SECRET_LENGTH, scrubText } from '../../domain/secrets.js';
import type { ArtifactRef } from '../../domain/records.js';
import { readSmallFile, SMALL_FILE_BYTES, writeSmallFileAtomic } from '../small-files.js';

/** Emits all but a carry long enough that no secret can straddle the cut unseen, moving the cut past any that would. */
export function scrubChunk(buffer: string, secrets: string[], final: boolean): { out: string; carry: string } {
  if (final || secrets.length === 0) return { out: scrubText(buffer, secrets), carry: '' };
  const longest = Math.max(...secrets.map((value) => value.length));
  let cut = Math.max(0, buffer.length - (longest - 1));
  for (let moved = true; moved;) {
    moved = false;
    for (const value of secrets) {
      for (
        let at = buffer.indexOf(value, Math.max(0, cut - value.length + 1));
        at !== -1 && at < cut;
        at = buffer.indexOf(value, at + 1)
      ) {
        if (at + value.length > cut) {
          cut = at;
          moved = true;
        }
      }
    }
  }
  return { out: scrubText(buffer.slice(0, cut), secrets), carry: buffer.slice(cut) };
}

/**
 * Streams `source` into `<dir>/<name>` (temp file + rename), scrubbed of `secretValues`; a log of at most
 * SMALL_FILE_BYTES is read, scrubbed and written whole, synchronously (see activities/small-files.ts).
 */
export async function scrubFileToArtifact(input: {
  source: string;
  dir: string;
  name: string;
  secretValues: string[];
  hostId: string;
}): Promise<ArtifactRef> {
  const secrets = [...new Set(input.secretValues)].filter((value) => value.length >= MIN_SECRET_LENGTH);
  const target = path.join(input.dir, input.name);
  const temp = path.join(input.dir, `.${input.name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const size = statSync(input.source, { throwIfNoEntry: false })?.size ?? 0;
  if (size <= SMALL_FILE_BYTES) {
    // A missing source is an empty log.
    const scrubbed = scrubText(readSmallFile(input.source) ?? '', secrets);
    writeSmallFileAtomic(target, scrubbed, temp);
    return { hostId: input.hostId, path: target, bytes: Buffer.byteLength(scrubbed, 'utf8') };
  }
  await mkdir(input.dir, { recursive: true });
  const sink = createWriteStream(temp);
  try {
    let carry = '';
    const reader = createReadStream(input.source, { encoding: 'utf8' }).on('error', () => undefined);
    try {
      for await (const chunk of reader as AsyncIterable<string>) {
        const next = scrubChunk(carry + chunk, secrets, false);
        carry = next.carry;
        if (!sink.write(next.out)) await once(sink, 'drain');
      }
    } catch {
      // A missing source is an empty log.
    }
    sink.end(scrubChunk(carry, secrets, true).out);
    await once(sink, 'finish');
    await rename(temp, target);
  } catch (error) {
    sink.destroy();
    await rm(temp, { force: true });
    throw error;
  }
  return { hostId: input.hostId, path: target, bytes: (await stat(target)).size };
}
