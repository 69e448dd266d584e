// Splits a command line into words the way a POSIX shell would (quotes and backslashes), without running a shell.

export type SplitWordsResult = { success: true; data: string[] } | { success: false; error: string };

/** `python3 -m pytest -k "add and not slow"` -> ['python3', '-m', 'pytest', '-k', 'add and not slow']. */
export function splitCommandWords(text: string): SplitWordsResult {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      // Inside double quotes a backslash escapes only what the shell would: " \ $ `
      else if (char === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1] as string)) word += text[++i];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote)
    return { success: false, error: `unterminated ${quote} quote in ${JSON.stringify(text)}; close the quote` };
  if (inWord) words.push(word);
  return { success: true, data: words };
}
