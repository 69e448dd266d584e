// Bounded excerpts for the trajectory page: a long reply or argument is cut, and the cut says how much was left out,
// so a page of a 200-turn run stays readable and a person knows where the whole text is.

/** `text` itself when it is at most `limit` characters, else its start and a line saying how many were left out. */
export function excerpt(text: string, limit: number): string {
  if (text.length <= limit) return text;
  // Cut at a line end when one is near, so a diff or a test output is not cut mid-line.
  const newline = text.lastIndexOf('\n', limit);
  const end = newline > limit * 0.6 ? newline : limit;
  return `${text.slice(0, end)}\n… (${text.length - end} more characters)`;
}

/** A tool call's arguments as one short JSON text. */
export function argumentsExcerpt(args: Record<string, unknown>, limit: number): string {
  return excerpt(JSON.stringify(args), limit);
}
