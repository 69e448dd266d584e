// The codec server's token: the operator's (a file or a variable), or else one made once and kept in the state
// folder, mode 600, so the Web UI's saved endpoint (which carries it) keeps working across restarts. Sandboxed code
// never sees the state folder, so it cannot know the token even where it can reach the port.
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const TOKEN_VARIABLE = 'TASKLOOP_CODEC_SERVER_TOKEN';
export const TOKEN_FILE_NAME = 'codec-server.token';
const MIN_TOKEN_CHARACTERS = 16;

export interface CodecServerToken {
  token: string;
  /** Where it came from, for messages: `--token-file FILE`, the variable, or the state folder's file. */
  source: string;
  /** The file holding it, when there is one (the CLI names it rather than print the token twice). */
  file?: string;
}

/** A refused token setting; the message names the flag, variable or file and the fix, never the token. */
export class CodecServerTokenError extends Error {
  override name = 'CodecServerTokenError';
}

/** The token from `--token-file`, else TASKLOOP_CODEC_SERVER_TOKEN, else `<state folder>/codec-server.token`. */
export async function resolveCodecServerToken(
  tokenFile: string | undefined,
  stateDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CodecServerToken> {
  if (tokenFile !== undefined) return readTokenFile(tokenFile, `--token-file ${tokenFile}`);
  const fromEnv = env[TOKEN_VARIABLE]?.trim();
  if (fromEnv) return { token: checkedToken(fromEnv, TOKEN_VARIABLE), source: TOKEN_VARIABLE };
  const file = path.join(stateDir, TOKEN_FILE_NAME);
  await createTokenFile(file);
  return readTokenFile(file, file);
}

async function readTokenFile(file: string, where: string): Promise<CodecServerToken> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new CodecServerTokenError(`${where}: cannot be read (${error.code ?? error.message})`);
  });
  const mode = (await stat(file)).mode & 0o777;
  if (mode & 0o004)
    throw new CodecServerTokenError(
      `${where} is readable by every user of this machine (mode ${mode.toString(8)}), and the token lets anyone who reaches the codec server decrypt every payload: make it yours alone with chmod 600 ${file}`,
    );
  return { token: checkedToken(text.trim(), where), source: where, file };
}

function checkedToken(token: string, where: string): string {
  if (token.length < MIN_TOKEN_CHARACTERS)
    throw new CodecServerTokenError(
      `${where}: the token is ${token.length} characters, at least ${MIN_TOKEN_CHARACTERS} are needed (make one with: openssl rand -hex 32)`,
    );
  return token;
}

/** Writes a new random token unless the file exists; never a half-written file (written aside, then linked). */
async function createTokenFile(file: string): Promise<void> {
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  if (exists) return;
  await mkdir(path.dirname(file), { recursive: true });
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(aside, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(aside);
  }
}
