// Terminal conventions in one place: colour on a terminal (or with FORCE_COLOR), never with a non-empty NO_COLOR;
// in-place progress only on a terminal; piped or logged output stays plain lines.

interface Stream {
  isTTY?: boolean;
  write(text: string): unknown;
}

type Paint = (text: string) => string;

export interface Style {
  color: boolean;
  bold: Paint;
  dim: Paint;
  red: Paint;
  green: Paint;
  yellow: Paint;
}

/** NO_COLOR turns colour off only when it holds something (no-color.org: an empty one is as if unset). */
const noColor = (env: NodeJS.ProcessEnv) => (env.NO_COLOR ?? '') !== '';

/** FORCE_COLOR: on for any value but "0" and "false" (off); undefined when unset or empty. */
function forceColor(env: NodeJS.ProcessEnv): boolean | undefined {
  const value = env.FORCE_COLOR;
  if (value === undefined || value === '') return undefined;
  return value !== '0' && value.toLowerCase() !== 'false';
}

/** Redrawing lines in place: a terminal, not dumb, and colour not turned off (a plain request means plain lines). */
export function wantsInPlace(stream: Stream, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && env.TERM !== 'dumb' && !noColor(env) && forceColor(env) !== false;
}

/**
 * Whether to colour this stream: NO_COLOR (non-empty, also set by --no-color) turns it off; then FORCE_COLOR
 * decides, even for a pipe (CI logs that render colour); else a terminal whose TERM is not dumb.
 */
export function wantsColor(stream: Stream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (noColor(env)) return false;
  return forceColor(env) ?? (stream.isTTY === true && env.TERM !== 'dumb');
}

export function style(stream: Stream, env: NodeJS.ProcessEnv = process.env): Style {
  const color = wantsColor(stream, env);
  const paint =
    (open: number, close: number): Paint =>
    (text) =>
      color ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    color,
    bold: paint(1, 22),
    dim: paint(2, 22),
    red: paint(31, 39),
    green: paint(32, 39),
    yellow: paint(33, 39),
  };
}

/**
 * A status line that a terminal rewrites in place; elsewhere each change is its own line, and a repeat of the
 * last line is not printed at all (logs stay short).
 */
export function progressLine(stream: Stream, env: NodeJS.ProcessEnv = process.env) {
  const inPlace = wantsInPlace(stream, env);
  let last: string | undefined;
  return {
    update(text: string): void {
      if (text === last) return;
      last = text;
      stream.write(inPlace ? `\r\u001b[2K${text}` : `${text}\n`);
    },
    /** Ends the line in place so what follows starts on a fresh one. */
    done(): void {
      if (inPlace && last !== undefined) stream.write('\n');
      last = undefined;
    },
  };
}
