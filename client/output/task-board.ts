// Live progress on a terminal: one line per task (status, phase, attempt, time since it started), redrawn in place
// on every poll so the time ticks. Lines printed meanwhile (warnings) go above the board, which is then redrawn.
import { style as styleOf, wantsInPlace, type Style } from './style.js';

interface Stream {
  isTTY?: boolean;
  /** The terminal's height: a board taller than the screen could not be redrawn in place. */
  rows?: number;
  write(text: string): unknown;
}

export interface BoardRow {
  id: string;
  status: string;
  phase?: string;
  attempt?: number;
  /** Time since the task started (or how long it ran); unset before it starts. */
  elapsedMs?: number;
  /** A short remark such as the last failure's class. */
  note?: string;
}

export interface TaskBoard {
  /** Draws the rows (and an optional footer line, such as a progress bar) over the previous drawing. */
  show(rows: BoardRow[], footer?: string): void;
  /** A line of its own above the board (the board redraws below it on the next show). */
  print(line: string): void;
  /** Clears the board: what follows (the outcome) takes its place. */
  done(): void;
}

const statusPaint = (status: string, st: Style) =>
  status === 'COMPLETED'
    ? st.green
    : status === 'FAILED' || status === 'CANCELLED'
      ? st.red
      : status === 'RUNNING'
        ? st.yellow
        : st.dim;

export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes}m${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`;
}

export function formatBoardRow(row: BoardRow, st: Style, idWidth = row.id.length): string {
  const parts = [
    row.id.padEnd(idWidth),
    statusPaint(row.status, st)(row.status.padEnd(9)),
    st.bold((row.phase ?? '').padEnd(7)),
    (row.attempt ? `attempt ${row.attempt}` : '').padEnd(9),
    st.dim((row.elapsedMs === undefined ? '' : formatElapsed(row.elapsedMs)).padStart(6)),
  ];
  return `${parts.join(' ')}${row.note ? ` ${st.dim(row.note)}` : ''}`;
}

/**
 * The terminal's height when it says one: a terminal that reports 0 rows (`stty rows 0`, a pty nobody sized) or none
 * gives no room to redraw in, so it gets plain lines (a board there would only ever show its "… more" line).
 */
const knownRows = (stream: Stream) => (typeof stream.rows === 'number' && stream.rows > 0 ? stream.rows : undefined);

/** A board for a terminal stream, or undefined where progress must stay plain lines (not a TTY, NO_COLOR, no height). */
export function createTaskBoard(stream: Stream, env: NodeJS.ProcessEnv = process.env): TaskBoard | undefined {
  if (!wantsInPlace(stream, env) || knownRows(stream) === undefined) return undefined;
  const st = styleOf(stream, env);
  let drawn = 0;
  // Cursor up over the lines drawn last time, and clear from there down.
  const erase = () => (drawn > 0 ? `\u001b[${drawn}A\r\u001b[J` : '');
  return {
    show(rows, footer) {
      const width = Math.max(0, ...rows.map((row) => row.id.length));
      let lines = rows.map((row) => formatBoardRow(row, st, width));
      // A terminal made smaller since still shows the first task (never only the "… more" line).
      const room = Math.max(2, (knownRows(stream) ?? Infinity) - 2 - (footer === undefined ? 0 : 1));
      if (lines.length > room) lines = [...lines.slice(0, room - 1), st.dim(`... ${lines.length - room + 1} more`)];
      if (footer !== undefined) lines.push(footer);
      stream.write(`${erase()}${lines.map((line) => `${line}\n`).join('')}`);
      drawn = lines.length;
    },
    print(line) {
      stream.write(`${erase()}${line}\n`);
      drawn = 0;
    },
    done() {
      // The outcome printed next says how it ended; a last "RUNNING" line above it would only mislead.
      if (drawn > 0) stream.write(erase());
      drawn = 0;
    },
  };
}
