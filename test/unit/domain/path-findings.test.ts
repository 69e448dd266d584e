import { describe, expect, it } from 'vitest';
import { findAttributeDrivers, driversNamed } from '../../../domain/attribute-drivers.js';
import { findPlantedGitPaths, findSecretsInPaths, isInPlantedGitFolder } from '../../../domain/path-findings.js';
import { encodedSecretForms, secretForms, shiftedBase64Forms } from '../../../domain/secret-forms.js';

const secret = 'Sup3r???s3cret>>~~'; // its base64 holds '/' and '+': the URL-safe form differs
const b64 = Buffer.from(secret).toString('base64').replace(/=+$/, '');
const b64url = Buffer.from(secret).toString('base64url');
const hex = Buffer.from(secret).toString('hex');

describe('secretForms', () => {
  it("gives a value with its base64 (standard, URL-safe, unpadded) and hex (both cases) forms, as Node's Buffer writes them", () => {
    expect(secretForms([secret]).sort()).toEqual([secret, b64, b64url, hex, hex.toUpperCase()].sort());
    for (const value of ['abcd', 'abcde', 'abcdef', 'héllo wörld ✓']) {
      const forms = secretForms([value]);
      expect(forms).toContain(Buffer.from(value).toString('base64').replace(/=+$/, ''));
      expect(forms).toContain(Buffer.from(value).toString('hex'));
    }
  });

  it('leaves out values too short to scrub', () => {
    expect(secretForms(['abc', ''])).toEqual([]);
  });
});

describe('shiftedBase64Forms', () => {
  it('finds a secret inside a longer base64 text at each of the three alignments, in both alphabets', () => {
    const forms = shiftedBase64Forms([secret]);
    for (const before of ['', 'x', 'xy', 'xyz', 'héllo']) {
      for (const after of ['', 'z', 'zz!']) {
        const bytes = Buffer.from(`${before}${secret}${after}`);
        for (const text of [bytes.toString('base64'), bytes.toString('base64url')])
          expect(
            forms.some((form) => text.includes(form)),
            `${JSON.stringify(before)} before, ${JSON.stringify(after)} after`,
          ).toBe(true);
      }
    }
  });

  it('gives no form too short to mean anything, and none for a text without the secret', () => {
    expect(shiftedBase64Forms(['abcd'])).toEqual([]);
    const unrelated = Buffer.from('x'.repeat(10_000)).toString('base64');
    expect(encodedSecretForms([secret]).some((form) => unrelated.includes(form))).toBe(false);
  });
});

describe('findSecretsInPaths', () => {
  it('finds a secret split across two folders, and its base64 at another alignment, redacting the whole of it', () => {
    const half = secret.length / 2;
    const split = `dir_${secret.slice(0, half)}/${secret.slice(half)}.txt`;
    const shifted = `data/${Buffer.from(`x${secret}`).toString('base64url')}.bin`;
    const findings = findSecretsInPaths([split, shifted, 'a/b.py'], [secret]);
    expect(findings.map((finding) => finding.file)).toEqual([
      'dir_[redacted].txt',
      expect.stringMatching(/^data\/.{0,3}\[redacted\].{0,3}\.bin$/),
    ]);
    expect(JSON.stringify(findings)).not.toContain(secret.slice(0, half));
    expect(JSON.stringify(findings)).not.toContain(secret.slice(half));
  });

  it('finds a secret in a file name, a folder name and any of its encoded forms, naming the path redacted', () => {
    const files = [
      `notes_${secret}.txt`,
      `dir_${secret}/a.py`,
      `src/${b64url}.py`,
      `src/${hex.toUpperCase()}`,
      'src/plain.py',
    ];
    const findings = findSecretsInPaths(files, [secret]);
    expect(findings.map((finding) => finding.file)).toEqual([
      'notes_[redacted].txt',
      'dir_[redacted]/a.py',
      'src/[redacted].py',
      'src/[redacted]',
    ]);
    expect(findings.every((finding) => finding.rule === 'secret_in_path')).toBe(true);
    for (const form of secretForms([secret])) expect(JSON.stringify(findings)).not.toContain(form);
  });

  it('finds nothing without secrets or in clean paths', () => {
    expect(findSecretsInPaths(['a.py'], [])).toEqual([]);
    expect(findSecretsInPaths(['a.py', 'b/c.py'], [secret])).toEqual([]);
  });
});

describe('findPlantedGitPaths', () => {
  it('finds a .git folder or file at any depth, in any case, and nothing else', () => {
    expect(isInPlantedGitFolder('vendored/.git/config')).toBe(true);
    expect(isInPlantedGitFolder('sub/.git')).toBe(true);
    expect(isInPlantedGitFolder('.GIT/hooks/pre-commit')).toBe(true);
    expect(isInPlantedGitFolder('.github/workflows/ci.yml')).toBe(false);
    expect(isInPlantedGitFolder('.gitignore')).toBe(false);
    expect(isInPlantedGitFolder('docs/my.git/x')).toBe(false);
    expect(findPlantedGitPaths(['a.py', 'v/.git/config'])).toEqual([
      expect.objectContaining({ rule: 'git_folder_planted', file: 'v/.git/config' }),
    ]);
  });
});

describe('findAttributeDrivers', () => {
  it('names filter, diff and merge drivers but not the built-in ones, comments or plain attributes', () => {
    expect(driversNamed('* filter=pwn')).toEqual(['filter=pwn']);
    expect(driversNamed('*.bin diff=x merge=y -text')).toEqual(['diff=x', 'merge=y']);
    expect(driversNamed('[attr]evil filter=lfs diff=lfs merge=lfs')).toEqual(['filter=lfs', 'diff=lfs', 'merge=lfs']);
    expect(driversNamed('*.py diff=python merge=union text eol=lf')).toEqual([]);
    expect(driversNamed('*.png -diff binary')).toEqual([]);
    expect(driversNamed('# * filter=pwn')).toEqual([]);
  });

  it('finds them only in .gitattributes files, at any depth', () => {
    const findings = findAttributeDrivers([
      { file: '.gitattributes', line: 1, text: '* filter=pwn' },
      { file: 'vendored/.gitattributes', line: 3, text: '*.py diff=pwn' },
      { file: 'README.md', line: 1, text: '* filter=pwn' },
    ]);
    expect(findings).toEqual([
      expect.objectContaining({ rule: 'git_attributes_driver', file: '.gitattributes', line: 1 }),
      expect.objectContaining({ rule: 'git_attributes_driver', file: 'vendored/.gitattributes', line: 3 }),
    ]);
    expect(findings[0]?.message).toContain('filter=pwn');
  });
});
