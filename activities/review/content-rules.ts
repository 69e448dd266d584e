// Review rules about what the added lines say: conflict markers and secrets.
import type { Finding } from '../../domain/records.js';
import { encodedSecretForms } from '../../domain/secret-forms.js';
import { MIN_SECRET_LENGTH, secretKeyFormats } from '../../domain/secrets.js';
import type { AddedLine } from './added-lines.js';

// The three markers git writes into a conflicted file; "=======" must be alone, so RST underlines of other lengths pass.
const conflictMarker = /^(?:<{7}(?:\s|$)|={7}\s*$|>{7}(?:\s|$))/;

export function checkConflictMarkers(lines: AddedLine[]): Finding[] {
  return lines
    .filter((line) => conflictMarker.test(line.text))
    .map(({ file, line, text }) => ({
      rule: 'conflict_marker',
      message: `${file}:${line} adds the merge conflict marker "${text.slice(0, 7)}": resolve the conflict`,
      file,
      line,
    }));
}

/** Common shapes of credentials, named for the finding (which never repeats the secret itself). */
export const secretShapes = secretKeyFormats;

/**
 * Finds configured secret values and credential shapes in added lines. Returns the findings and the matched
 * texts, so the caller can scrub them from the stored diff too.
 */
export function checkSecrets(lines: AddedLine[], secretValues: string[]): { findings: Finding[]; matches: string[] } {
  const values = secretValues.filter((value) => value.length >= MIN_SECRET_LENGTH);
  // Base64 at each alignment and hex: a secret written encoded is published as surely as one written plain.
  const encoded = encodedSecretForms(values).filter((form) => !values.includes(form));
  const findings: Finding[] = [];
  const matches: string[] = [];
  for (const { file, line, text } of lines) {
    const found: string[] = [];
    if (values.some((value) => text.includes(value))) found.push('a configured secret value');
    else if (encoded.some((form) => text.includes(form))) found.push("a configured secret's base64 or hex form");
    for (const { label, pattern } of secretShapes) {
      const hits = text.match(pattern);
      if (hits) {
        found.push(label);
        matches.push(...hits);
      }
    }
    if (found.length > 0) {
      findings.push({
        rule: 'secret_in_diff',
        message: `${file}:${line} adds ${found.join(' and ')}: remove it and read secrets from the environment`,
        file,
        line,
      });
    }
  }
  return { findings, matches };
}
