// A stable task id when none is given: the same goal on the same repository is the same task, so running the same
// command twice finds the first run instead of starting a second.
import { createHash, createHmac } from 'node:crypto';

const MAX_SLUG_CHARS = 40;

/**
 * `fix-add-in-calc-py-1a2b3c`: a slug of the goal's first words and 6 hex chars of a hash of repo and goal. With a
 * payload key (`secret`), `task-` and 12 hex chars of an HMAC under it: the id is a workflow id and a search attribute,
 * which the server stores in clear, so it must carry no word of the goal and confirm no guess of it.
 */
export function deriveTaskId(goal: string, repo: string, secret?: Buffer): string {
  if (secret)
    return `task-${createHmac('sha256', secret).update(`taskloop task id\n${repo}\n${goal}`).digest('hex').slice(0, 12)}`;
  const hash = createHash('sha256').update(`${repo}\n${goal}`).digest('hex').slice(0, 6);
  return `${slugify(goal) || 'task'}-${hash}`;
}

function slugify(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents off, so "café" becomes "cafe" rather than "caf"
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX_SLUG_CHARS) return slug || word.slice(0, MAX_SLUG_CHARS);
    slug = next;
  }
  return slug;
}
