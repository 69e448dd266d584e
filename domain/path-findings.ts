// Review rules on the paths of a change, whatever their content: a path holding a secret's value (or its base64 or
// hex form) would publish it with the branch, and a planted git folder (`.git` anywhere, a file named `.git`) is read
// by git as a repository of its own, whose configuration can name programs, when anyone checks the branch out.
import type { Finding } from './records.js';
import { secretForms } from './secret-forms.js';

const REDACTED = '[redacted]';

/** `path` with every form removed, longest first (so a form that holds another goes whole). */
export function redactPath(path: string, forms: readonly string[]): string {
  let result = path;
  for (const form of [...forms].sort((a, b) => b.length - a.length)) result = result.split(form).join(REDACTED);
  return result;
}

/**
 * The `secret_in_path` findings: each changed path that holds the value of a secret (the task's declared ones and the
 * worker's secret-named variables: `secretValues`) or its base64 or hex form. The finding names the path redacted.
 */
export function findSecretsInPaths(changedFiles: readonly string[], secretValues: readonly string[]): Finding[] {
  const forms = secretForms(secretValues);
  if (forms.length === 0) return [];
  return changedFiles
    .filter((file) => forms.some((form) => file.includes(form)))
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
