// Keeps secret values out of records, events and logs that travel through Temporal or land on disk.

const redacted = '[redacted]';
/** Shorter values are not scrubbed: replacing every "abc" would wreck the text and protect nothing. */
export const MIN_SECRET_LENGTH = 4;

const secretWords = new Set(['KEY', 'TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'CREDENTIAL', 'PRIVATE']);
// Plurals that still name secrets; not TOKENS, which usually counts them (MAX_TOKENS=4096).
const secretPlurals = new Set(['KEYS', 'SECRETS', 'PASSWORDS', 'CREDENTIALS']);
// Fused forms seen in the wild: PGPASSWORD, APIKEY, ACCESSTOKEN.
const secretSuffixes = ['PASSWORD', 'PASSWD', 'APIKEY', 'TOKEN', 'SECRET'];

// Every sink scrubs with the worker's whole environment, so the same names are asked about again and again; the
// answer depends on the name alone.
const secretNameAnswers = new Map<string, boolean>();

/** True when an environment variable name says its value is a secret (KEY, TOKEN, SECRET, PASSWORD… as a word). */
export function isSecretEnvName(name: string): boolean {
  let answer = secretNameAnswers.get(name);
  if (answer === undefined) {
    answer = nameLooksSecret(name);
    if (secretNameAnswers.size < 10_000) secretNameAnswers.set(name, answer);
  }
  return answer;
}

function nameLooksSecret(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2') // camelCase: apiKey -> api_Key
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((word) => word.length > 0);
  return words.some(
    (word) =>
      secretWords.has(word) || secretPlurals.has(word) || secretSuffixes.some((suffix) => word.endsWith(suffix)),
  );
}

/**
 * Credential formats recognised even when no variable declares them (the documented ruleset: docs/security.md).
 * Order matters for the label only: the more specific prefix comes first (sk-ant- before sk-). Each starts at a word
 * boundary, so a workflow id such as `task-itest-fix-add-0123456789` is not taken for an `sk-` key.
 */
export const secretKeyFormats: readonly { label: string; pattern: RegExp }[] = [
  { label: 'a GitHub fine-grained token (github_pat_...)', pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/g },
  { label: 'a GitHub token (ghp_, gho_, ghu_, ghs_, ghr_...)', pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}/g },
  { label: 'a Stripe key (sk_live_, rk_live_...)', pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { label: 'a Google API key (AIza...)', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { label: 'a Slack token (xoxb-, xoxp-...)', pattern: /\bxox[baprs]-[A-Za-z0-9-]{10,}/g },
  { label: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { label: 'an Anthropic API key (sk-ant-...)', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { label: 'an API secret key (sk-...)', pattern: /\bsk-(?!ant-)[A-Za-z0-9_-]{20,}/g },
  // The whole block when it is there; the BEGIN line alone when the text was cut.
  {
    label: 'a private key',
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----)?/g,
  },
];

/** Every credential-format match in `text`, with the label of its format (the label never repeats the secret). */
export function findSecretKeys(text: string): { label: string; match: string }[] {
  return secretKeyFormats.flatMap(({ label, pattern }) =>
    (text.match(pattern) ?? []).map((match) => ({ label, match })),
  );
}

/**
 * THE scrubber: every sink (artifacts, provider requests, commit messages, events, logs, history payloads) passes
 * through it. Replaces each secret value (of 4 or more characters) and every known credential format with
 * `[redacted]`.
 */
export function scrubText(text: string, secretValues: string[]): string {
  // Longest first, so a secret that contains another is removed whole.
  const values = [...new Set(secretValues)]
    .filter((value) => value.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  let result = text;
  for (const value of values) result = result.split(value).join(redacted);
  for (const { pattern } of secretKeyFormats) result = result.replace(pattern, redacted);
  return result;
}

/** The secret values found in `text` (to refuse input that carries one), longest first. */
export function findSecretValues(text: string, secretValues: string[]): string[] {
  return [...new Set(secretValues)].filter((value) => value.length >= MIN_SECRET_LENGTH && text.includes(value));
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
    Object.defineProperty(copy, scrubText(key, secretValues), {
      value: scrubbed,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/** Values of the named variables plus every variable whose name looks secret, split by how they were found. */
export function secretValuesIn(
  env: Record<string, string | undefined>,
  declaredNames: string[],
): { declared: string[]; detected: string[] } {
  const declared = new Set<string>();
  const detected = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (declaredNames.includes(name)) declared.add(value);
    else if (isSecretEnvName(name)) detected.add(value);
  }
  return { declared: [...declared], detected: [...detected] };
}

/** Values found only by their variable's name must be this long to refuse input: `FEATURE_KEY=true` is no secret. */
export const MIN_DETECTED_SECRET_LENGTH = 8;

/**
 * Where a task's own fields would carry a secret into workflow history: the goal (a known value or a credential
 * format) and the test environment (a secret-named variable, or a known value). Field names as in the tasks file.
 */
export function findSecretsInTask(
  task: { goal: string; testEnv: Record<string, string> },
  secrets: { declared: string[]; detected: string[] },
): { field: string; what: string }[] {
  const known = [
    ...secrets.declared,
    ...secrets.detected.filter((value) => value.length >= MIN_DETECTED_SECRET_LENGTH),
  ];
  const inText = (text: string) => [
    ...(findSecretValues(text, known).length > 0 ? ['the value of a secret environment variable'] : []),
    ...findSecretKeys(text).map((hit) => hit.label),
  ];
  const found = inText(task.goal).map((what) => ({ field: 'goal', what }));
  for (const [name, value] of Object.entries(task.testEnv)) {
    if (isSecretEnvName(name)) found.push({ field: `testEnv.${name}`, what: 'a secret-named variable' });
    else found.push(...inText(value).map((what) => ({ field: `testEnv.${name}`, what })));
  }
  return found;
}
