// Keeps secret values out of records, events and logs that travel through Temporal or land on disk.

const redacted = '[redacted]';
/** Shorter values are not scrubbed: replacing every "abc" would wreck the text and protect nothing. */
export const MIN_SECRET_LENGTH = 4;

const secretWords = new Set(['KEY', 'TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'CREDENTIAL', 'PRIVATE']);
// Plurals that still name secrets; not TOKENS, which usually counts them (MAX_TOKENS=4096).
const secretPlurals = new Set(['KEYS', 'SECRETS', 'PASSWORDS', 'CREDENTIALS']);
// Fused forms seen in the wild: PGPASSWORD, APIKEY, ACCESSTOKEN.
const secretSuffixes = ['PASSWORD', 'PASSWD', 'APIKEY', 'TOKEN', 'SECRET'];

/** True when an environment variable name says its value is a secret (KEY, TOKEN, SECRET, PASSWORD… as a word). */
export function isSecretEnvName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2') // camelCase: apiKey -> api_Key
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((word) => word.length > 0);
  return words.some(
    (word) =>
      secretWords.has(word) ||
      secretPlurals.has(word) ||
      secretSuffixes.some((suffix) => word.endsWith(suffix)),
  );
}

/** Replaces every occurrence of each secret value (of 4 or more characters) with `[redacted]`. */
export function scrubText(text: string, secretValues: string[]): string {
  // Longest first, so a secret that contains another is removed whole.
  const values = [...new Set(secretValues)]
    .filter((value) => value.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  let result = text;
  for (const value of values) result = result.split(value).join(redacted);
  return result;
}

/**
 * Deep copy of JSON data with secrets removed: a key named `secrets` (any case) has its value replaced,
 * and every string, keys included, is scrubbed.
 */
export function scrubSecrets<T>(value: T, secretValues: string[]): T {
  return scrubValue(value, secretValues) as T;
}

function scrubValue(value: unknown, secretValues: string[]): unknown {
  if (typeof value === 'string') return scrubText(value, secretValues);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secretValues));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const scrubbed = key.toLowerCase() === 'secrets' ? redacted : scrubValue(item, secretValues);
    // defineProperty, not assignment: a `__proto__` key in parsed JSON must stay data, not become a prototype.
    Object.defineProperty(copy, scrubText(key, secretValues), { value: scrubbed, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}
