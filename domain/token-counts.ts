// Tokens as show, status and the reports print them: what servers reported, and, apart, the requests whose tokens
// are unknown (no usage came back: failed requests, servers that report none), which are never guessed into a total.

/** "1200 in / 300 out", "1200 in / 300 out (+ 2 requests without usage: unknown)", or "unknown (…)" when none had usage. */
export function describeTokens(counts: {
  input: number;
  output: number;
  requests: number;
  unmetered?: number;
}): string {
  const unmetered = counts.unmetered ?? 0;
  const known = `${counts.input} in / ${counts.output} out`;
  if (unmetered === 0) return known;
  if (unmetered >= counts.requests && counts.input === 0 && counts.output === 0)
    return `unknown (no usage came back for ${plural(unmetered)})`;
  return `${known} (+ ${plural(unmetered)} without usage: unknown)`;
}

const plural = (count: number) => `${count} request${count === 1 ? '' : 's'}`;

/** A report's spend: "1200 input + 300 output tokens", the requests whose tokens are unknown apart. */
export function describeSpendTokens(spend: {
  inputTokens: number;
  outputTokens: number;
  unmeteredModelRequests?: number;
}): string {
  const known = `${spend.inputTokens} input + ${spend.outputTokens} output tokens`;
  const unmetered = spend.unmeteredModelRequests ?? 0;
  return unmetered === 0 ? known : `${known} (+ ${plural(unmetered)} without usage: tokens unknown)`;
}
