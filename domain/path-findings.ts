// Review rules on the paths of a change, whatever their content: a path holding a secret's value (or its base64 or
// hex form) would publish it with the branch, and a planted git folder (`.git` anywhere, a file named `.git`) is read
// by git as a repository of its own, whose configuration can name programs, when anyone checks the branch out.
import type { Finding } from './records.js';
import { encodedSecretForms } from './secret-forms.js';

const REDACTED = '[redacted]';

/** Whether `text` holds a form, as written or with its path separators removed. */
function holdsForm(text: string, forms: readonly string[]): boolean {
  if (forms.length === 0) return false;
  const joined = text.includes('/') ? text.replaceAll('/', '') : text;
  return forms.some((form) => text.includes(form) || joined.includes(form));
}

/**
 * Which characters of `text` belong to an occurrence of a form, as written or read with the path separators removed:
 * a secret split across two segments (`dir_abc/def.txt` for `abcdef`) is found as well, and its separator with it.
 */
function secretMarks(text: string, forms: readonly string[]): Uint8Array {
  const kept = new Int32Array(text.length); // the index in `text` of each character of the joined text
  let length = 0;
  for (let i = 0; i < text.length; i += 1) if (text[i] !== '/') kept[length++] = i;
  const joined = text.replaceAll('/', '');
  const marks = new Uint8Array(text.length);
  for (const form of forms) {
    // As written too: a form may hold a '/' itself (standard base64 does).
    for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) marks.fill(1, at, at + form.length);
    for (let at = joined.indexOf(form); at !== -1; at = joined.indexOf(form, at + 1))
      marks.fill(1, kept[at], (kept[at + form.length - 1] ?? 0) + 1);
  }
  return marks;
}

/** `path` (or any text naming paths) with every occurrence of a form, also one split by separators, redacted. */
export function redactPath(path: string, forms: readonly string[]): string {
  if (!holdsForm(path, forms)) return path;
  const marks = secretMarks(path, forms);
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i <= path.length; i += 1) {
    const marked = i < path.length && marks[i] === 1;
    const wasMarked = i > 0 && marks[i - 1] === 1;
    if (marked && !wasMarked) parts.push(path.slice(from, i), REDACTED);
    if (!marked && wasMarked) from = i;
  }
  if (marks[path.length - 1] !== 1) parts.push(path.slice(from));
  return parts.join('');
}

/** Findings with every form redacted from their messages and paths (redactPath), after `scrub` when given. */
export function redactFindings(
  findings: readonly Finding[],
  forms: readonly string[],
  scrub: (text: string) => string = (text) => text,
): Finding[] {
  return findings.map((finding) => ({
    ...finding,
    message: redactPath(scrub(finding.message), forms),
    ...(finding.file === undefined ? {} : { file: redactPath(scrub(finding.file), forms) }),
  }));
}

/**
 * The `secret_in_path` findings: each changed path that holds the value of a secret (the task's declared ones and the
 * worker's secret-named variables: `secretValues`) or an encoded form of it (base64 at any alignment, hex), also split
 * across folders (`dir_abc/def.txt`). The finding names the path redacted.
 */
export function findSecretsInPaths(changedFiles: readonly string[], secretValues: readonly string[]): Finding[] {
  const forms = encodedSecretForms(secretValues);
  if (forms.length === 0) return [];
  return changedFiles
    .filter((file) => holdsForm(file, forms))
    .map((file) => {
      const shown = redactPath(file, forms);
      return {
        rule: 'secret_in_path',
        message: `${shown}: its path holds the value of a secret (or its base64 or hex form): rename it; a file or folder name is published with the branch`,
        file: shown,
      };
    });
}

/** True when a segment of `file` is `.git` in any case (git reads such a folder or file as a repository's own). */
export function isInPlantedGitFolder(file: string): boolean {
  return file.split('/').some((segment) => segment.toLowerCase() === '.git');
}

/** The `git_folder_planted` findings: each changed path that is, or lies inside, a `.git` folder or file. */
export function findPlantedGitPaths(changedFiles: readonly string[]): Finding[] {
  return changedFiles.filter(isInPlantedGitFolder).map((file) => ({
    rule: 'git_folder_planted',
    message: `${file} is a git folder or file planted in the repository (a path named .git): git would read it as a repository of its own, with settings that can run programs; remove it`,
    file,
  }));
}
