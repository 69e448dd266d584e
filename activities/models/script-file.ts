// Loads a `scripted:<file>` model file on the worker; the format itself is validated by domain/model-script.ts.
import { ApplicationFailure } from '@temporalio/common';
import { parseScript, type Script } from '../../domain/model-script.js';
import { readText } from '../small-files.js';

export { formatJsonPath, parseScript, type Script, type ScriptedTurn } from '../../domain/model-script.js';

function invalidScript(file: string, problem: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: 'InvalidScript',
    nonRetryable: true,
    message: `invalid scripted model file ${file}: ${problem}`,
  });
}

/** Reads and validates a scripted model file; throws a non-retryable `InvalidScript` failure. */
export async function loadScript(file: string): Promise<Script> {
  let text: string;
  try {
    text = await readText(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'the file does not exist' : `it cannot be read (${code ?? String(error)})`;
    throw invalidScript(
      file,
      `${why}; fix: pass scripted:<path> naming an existing JSON file (relative paths resolve against the working directory)`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw invalidScript(file, `not valid JSON (${(error as Error).message}); fix: correct the JSON syntax`);
  }
  const result = parseScript(json);
  if (!result.success) throw invalidScript(file, result.error);
  return result.data;
}
