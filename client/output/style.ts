// Terminal conventions in one place: colour and in-place progress only on a terminal, and never with NO_COLOR;
// piped or logged output stays plain lines.

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

/** Whether to colour this stream: a terminal, NO_COLOR unset (any value turns colour off), TERM not dumb. */
export function wantsColor(stream: Stream, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && env.NO_COLOR === undefined && env.TERM !== 'dumb';
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
  const inPlace = wantsColor(stream, env);
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
