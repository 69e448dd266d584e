// Examples of the README and docs/ that tests run as written: a fenced block found by the marker comment above it.
import type { ResultPromise } from 'execa';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../../platform/paths.js';

/**
 * The body of the fenced block right after `<!-- marker -->` in `file` (relative to the project root), its
 * indentation inside a list item taken off.
 */
export async function documentedBlock(file: string, marker: string): Promise<string> {
  const text = await readFile(path.join(projectRoot, file), 'utf8');
  const found = new RegExp(`<!-- ${marker} -->\\n( *)\`\`\`\\w*\\n([\\s\\S]*?)\\n\\1\`\`\``).exec(text);
  if (!found) throw new Error(`${file} has no fenced block after <!-- ${marker} -->`);
  const [, indent = '', block = ''] = found;
  return block
    .split('\n')
    .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
    .join('\n');
}

/** The non-blank lines of that block: shell commands, one a line. */
export async function documentedCommands(file: string, marker: string): Promise<string[]> {
  return (await documentedBlock(file, marker)).split('\n').filter((line) => line.trim() !== '');
}

/** `export A=1 B=2` as pairs, or undefined for any other line. */
export function exportedVariables(line: string): [string, string][] | undefined {
  const exported = /^export (.+)$/.exec(line)?.[1];
  return exported?.split(/\s+/).map((pair) => {
    const [name = '', ...value] = pair.split('=');
    return [name, value.join('=')];
  });
}

/** Resolves with the output so far once a running command prints `text`; rejects when it exits first or times out. */
export function waitForText(child: ResultPromise, text: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no "${text}" within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    child.all?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(text)) {
        clearTimeout(timer);
        resolve(output);
      }
    });
    void child.then(() => {
      clearTimeout(timer);
      reject(new Error(`exited before "${text}":\n${output}`));
    });
  });
}
