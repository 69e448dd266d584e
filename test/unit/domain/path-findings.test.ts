import { describe, expect, it } from 'vitest';
import { findAttributeDrivers, driversNamed } from '../../../domain/attribute-drivers.js';
import { findPlantedGitPaths, findSecretsInPaths, isInPlantedGitFolder } from '../../../domain/path-findings.js';
import { secretForms } from '../../../domain/secret-forms.js';

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

describe('findSecretsInPaths', () => {
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
