import { describe, expect, it } from 'vitest';
import { isSecretEnvName, scrubSecrets, scrubText } from '../../../domain/secrets.js';

describe('isSecretEnvName', () => {
  it.each(['OPENAI_API_KEY', 'GITHUB_TOKEN', 'DB_PASSWORD', 'TEMPORAL_API_KEY', 'AWS_SECRET_ACCESS_KEY', 'SMTP_PASSWD', 'GOOGLE_CREDENTIALS', 'SSH_PRIVATE_KEY', 'PGPASSWORD', 'openaiApiKey', 'API-KEYS'])(
    'treats %s as secret',
    (name) => expect(isSecretEnvName(name)).toBe(true),
  );

  it.each(['KEYBOARD_LAYOUT', 'MONKEY', 'PATH', 'HOME', 'TOKENIZER_PATH', 'OPENAI_MAX_TOKENS', 'PRIVATEER'])('treats %s as not secret', (name) =>
    expect(isSecretEnvName(name)).toBe(false),
  );
});

describe('scrubText', () => {
  it('replaces every occurrence of each secret', () => {
    expect(scrubText('key=sk-abc123 again sk-abc123 and hunter22', ['sk-abc123', 'hunter22'])).toBe('key=[redacted] again [redacted] and [redacted]');
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
    const output = scrubSecrets(JSON.parse('{"__proto__": {"polluted": "sk-live-9999"}}') as Record<string, unknown>, [secret]);
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(output, '__proto__')?.value).toEqual({ polluted: '[redacted]' });
  });

  it('passes plain scalars through', () => {
    expect(scrubSecrets(42, [secret])).toBe(42);
    expect(scrubSecrets(`x${secret}`, [secret])).toBe('x[redacted]');
  });
});
