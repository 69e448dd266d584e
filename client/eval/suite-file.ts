// Reads a suite file (YAML or JSON) and validates it; every problem is one line `file: field: message`, exit 2.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { parseSuite } from '../../domain/eval/parse-suite.js';
import type { Suite } from '../../domain/eval/suite.js';
import { UsageError } from '../cli-errors.js';

export async function readSuiteFile(file: string): Promise<{ suite: Suite; text: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `taskloop eval: suite file ${file} cannot be read (${(error as Error).message}); pass the path of a suite .yaml`,
    );
  }
  let input: unknown;
  try {
    input = parse(text);
  } catch (error) {
    throw new UsageError(`taskloop eval: ${file} is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = parseSuite(input);
  if (!parsed.success)
    throw new UsageError(parsed.issues.map((issue) => `${file}: ${issue.field}: ${issue.message}`).join('\n'));
  return { suite: parsed.data, text };
}
