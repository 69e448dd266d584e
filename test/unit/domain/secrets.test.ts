import { describe, expect, it } from 'vitest';
import {
  findSecretKeys,
  findSecretsInTask,
  findSecretValues,
  isSecretEnvName,
  scrubSecrets,
  scrubText,
  secretValuesIn,
} from '../../../domain/secrets.js';

describe('isSecretEnvName', () => {
  it.each([
    'OPENAI_API_KEY',
    'GITHUB_TOKEN',
    'DB_PASSWORD',
    'TEMPORAL_API_KEY',
    'AWS_SECRET_ACCESS_KEY',
    'SMTP_PASSWD',
    'GOOGLE_CREDENTIALS',
    'SSH_PRIVATE_KEY',
    'PGPASSWORD',
    'openaiApiKey',
    'API-KEYS',
  ])('treats %s as secret', (name) => expect(isSecretEnvName(name)).toBe(true));

  it.each(['KEYBOARD_LAYOUT', 'MONKEY', 'PATH', 'HOME', 'TOKENIZER_PATH', 'OPENAI_MAX_TOKENS', 'PRIVATEER'])(
    'treats %s as not secret',
    (name) => expect(isSecretEnvName(name)).toBe(false),
  );
});

describe('scrubText', () => {
  it('replaces every occurrence of each secret', () => {
    expect(scrubText('key=sk-abc123 again sk-abc123 and hunter22', ['sk-abc123', 'hunter22'])).toBe(
      'key=[redacted] again [redacted] and [redacted]',
    );
  });

  it('leaves values shorter than 4 characters and empty values alone', () => {
    expect(scrubText('abc abcd', ['abc', ''])).toBe('abc abcd');
    expect(scrubText('abc abcd', ['abcd'])).toBe('abc [redacted]');
  });

  it('removes a secret that contains another secret whole', () => {
    expect(scrubText('token: secret-long-value', ['secret', 'secret-long-value'])).toBe('token: [redacted]');
  });

  it('treats secrets as literal text, not patterns', () => {
    expect(scrubText('a.b*c+ and axbbc', ['a.b*c+'])).toBe('[redacted] and axbbc');
  });
});

describe('scrubSecrets', () => {
  const secret = 'sk-live-9999';

  it('scrubs strings in nested arrays and objects and returns a copy', () => {
    const input = { a: [1, ['x', `token ${secret}`], { deep: [secret] }], ok: true, none: null };
    const output = scrubSecrets(input, [secret]);
    expect(output).toEqual({ a: [1, ['x', 'token [redacted]'], { deep: ['[redacted]'] }], ok: true, none: null });
    expect(input.a[2]).toEqual({ deep: [secret] });
  });

  it('scrubs keys too', () => {
    expect(scrubSecrets({ [secret]: 'value' }, [secret])).toEqual({ '[redacted]': 'value' });
  });

  it('redacts whatever sits under a key named secrets, in any case', () => {
    const output = scrubSecrets({ Secrets: { a: 'x' }, nested: [{ SECRETS: ['y'] }], secretsCount: 2 }, []);
    expect(output).toEqual({ Secrets: '[redacted]', nested: [{ SECRETS: '[redacted]' }], secretsCount: 2 });
  });

  it('keeps a __proto__ key as plain data', () => {
    const output = scrubSecrets(JSON.parse('{"__proto__": {"polluted": "sk-live-9999"}}') as Record<string, unknown>, [
      secret,
    ]);
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(output, '__proto__')?.value).toEqual({ polluted: '[redacted]' });
  });

  it('passes plain scalars through', () => {
    expect(scrubSecrets(42, [secret])).toBe(42);
    expect(scrubSecrets(`x${secret}`, [secret])).toBe('x[redacted]');
  });
});

describe('secretKeyFormats', () => {
  const x = (n: number, c = 'A') => c.repeat(n);
  // One made-up key per documented format; none of these is a real credential.
  const keys: [string, string, string][] = [
    ['a GitHub fine-grained token', `github_pat_11${x(20)}_${x(59, 'b')}`, 'GitHub fine-grained'],
    ['a classic GitHub token', `ghp_${x(36, 'c')}`, 'GitHub token'],
    ['a Stripe live secret key', `sk_live_${x(24, 'd')}`, 'Stripe'],
    ['a Stripe restricted key', `rk_live_${x(24, 'e')}`, 'Stripe'],
    ['a Google API key', `AIza${x(35, 'f')}`, 'Google'],
    ['a Slack bot token', `xoxb-1234567890-${x(24, 'g')}`, 'Slack'],
    ['a Slack user token', `xoxp-1234567890-${x(24, 'h')}`, 'Slack'],
    ['an AWS access key id', `AKIA${x(16, 'J')}`, 'AWS'],
    ['an OpenAI key', `sk-proj-${x(40, 'k')}`, 'sk-...'],
    ['an Anthropic key', `sk-ant-api03-${x(40, 'm')}`, 'Anthropic'],
    [
      'a private key block',
      `-----BEGIN OPENSSH PRIVATE KEY-----\n${x(64, 'n')}\n-----END OPENSSH PRIVATE KEY-----`,
      'private key',
    ],
  ];

  it.each(keys)('finds and scrubs %s', (_name, key, label) => {
    const text = `config: ${key} (end)`;
    const found = findSecretKeys(text);
    expect(found.map((hit) => hit.match)).toEqual([key]);
    expect(found[0]?.label).toContain(label);
    expect(scrubText(text, [])).toBe('config: [redacted] (end)');
  });

  it('scrubs the BEGIN line of a private key whose block was cut', () => {
    expect(scrubText('-----BEGIN RSA PRIVATE KEY-----\nMIIE', [])).toBe('[redacted]\nMIIE');
  });

  it('leaves look-alikes that are too short or not keys alone', () => {
    const text =
      'sk-short ghp_abc AKIA123 xoxb- AIzaShort task-runner sk_live_x task-itest-fix-add-in-calc-0123456789#1 desk_live_0123456789abcdefgh';
    expect(findSecretKeys(text)).toEqual([]);
    expect(scrubText(text, [])).toBe(text);
  });
});

describe('findSecretValues', () => {
  it('names the declared values a text holds, ignoring short ones', () => {
    expect(findSecretValues('use hunter22 and abc', ['hunter22', 'abc', 'absent-value'])).toEqual(['hunter22']);
  });
});

describe('findSecretsInTask', () => {
  const secrets = { declared: ['declared-value-1'], detected: ['detected-long-value', 'true'] };

  it('names the goal when it holds a declared value, a detected value or a key format', () => {
    expect(findSecretsInTask({ goal: 'use declared-value-1', testEnv: {} }, secrets)).toEqual([
      { field: 'goal', what: 'the value of a secret environment variable' },
    ]);
    expect(findSecretsInTask({ goal: 'use detected-long-value', testEnv: {} }, secrets)).toHaveLength(1);
    expect(findSecretsInTask({ goal: `call with ghp_${'x'.repeat(36)}`, testEnv: {} }, secrets)[0]?.what).toContain(
      'GitHub token',
    );
  });

  it('names test environment entries that are secret-named or hold a secret value', () => {
    const found = findSecretsInTask(
      { goal: 'fix it', testEnv: { API_TOKEN: 'anything', MODE: 'declared-value-1', OK: 'plain' } },
      secrets,
    );
    expect(found.map((hit) => hit.field)).toEqual(['testEnv.API_TOKEN', 'testEnv.MODE']);
  });

  it('does not refuse short values found only by their variable name', () => {
    expect(findSecretsInTask({ goal: 'make it return true', testEnv: {} }, secrets)).toEqual([]);
  });
});

describe('secretValuesIn', () => {
  it('splits declared values from those found by name, skipping empty ones', () => {
    expect(secretValuesIn({ MINE: 'aaaa', GH_TOKEN: 'bbbb', EMPTY_KEY: '', PATH: '/bin' }, ['MINE'])).toEqual({
      declared: ['aaaa'],
      detected: ['bbbb'],
    });
  });
});
