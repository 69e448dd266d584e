// Durations as people write them on a command line: 30s, 10m, 1h, 1h30m, 500ms, or 0.

const unitMs: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export type ParseDurationResult = { success: true; data: number } | { success: false; error: string };

/** Milliseconds of a duration like `10m` or `1h30m`; a bare `0` means none. */
export function parseDuration(text: string): ParseDurationResult {
  const trimmed = text.trim();
  if (trimmed === '0') return { success: true, data: 0 };
  const parts = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+$/.test(trimmed)
    ? [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)]
    : [];
  if (parts.length === 0) {
    return {
      success: false,
      error: `expected a duration like 30s, 10m, 1h or 1h30m (or 0), got ${JSON.stringify(text)}`,
    };
  }
  const total = parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * (unitMs[unit as string] ?? 0), 0);
  return { success: true, data: Math.round(total) };
}
