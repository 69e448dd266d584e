// Tool calls a model wrote as text instead of `tool_calls` (servers or models without native tool calling): a JSON
// object or fenced block naming an offered tool, `<tool_call>` tags, or a Python-style call such as Gemma's
// `read_file(path="calc.py")`. Only names of offered tools count, so prose that mentions JSON is left alone.

export interface TextToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJson(text: string): unknown {
  for (const attempt of [text, ...lenientForms(text)]) {
    try {
      return JSON.parse(attempt);
    } catch {
      // the next, more lenient reading
    }
  }
  return undefined;
}

/**
 * Readings of JSON a small model wrote almost right: raw tabs and line breaks inside strings (the 1.5B pasted
 * read_file's `16<TAB>` numbering into `old`), and a Python docstring written into a string unescaped (its
 * `"new": "…\n    """Doc."""\n…"` came as bare triple quotes), read as what they meant.
 */
function lenientForms(text: string): string[] {
  const escaped = escapeControlsInStrings(text);
  const forms = escaped === text ? [] : [escaped];
  if (text.includes('"""')) forms.push(escaped.replaceAll('"""', '\\"\\"\\"'));
  return forms;
}

const controlEscapes: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** `text` with the tabs and line breaks inside its JSON strings escaped (outside strings they are whitespace). */
function escapeControlsInStrings(text: string): string {
  let out = '';
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (inString && char === '\\') {
      out += char + (text[index + 1] ?? '');
      index++;
      continue;
    }
    if (char === '"') inString = !inString;
    out += inString ? (controlEscapes[char] ?? char) : char;
  }
  return out;
}

/** The call a JSON value describes, in the shapes models use: {name, arguments}, {tool, args}, {function: {…}}. */
function callOf(value: unknown, tools: ReadonlySet<string>): TextToolCall | undefined {
  if (!isObject(value)) return undefined;
  const inner = isObject(value.function) ? value.function : value;
  const name = [inner.name, inner.tool, inner.tool_name, value.function].find((v) => typeof v === 'string');
  if (typeof name !== 'string' || !tools.has(name)) return undefined;
  let args = inner.arguments ?? inner.parameters ?? inner.args ?? inner.input ?? {};
  // finish's one argument sent bare (`"arguments": "Fixed the bug in ..."`, the 1.5B's) is its summary.
  if (typeof args === 'string') args = parseJson(args) ?? (name === 'finish' ? { summary: args } : {});
  return isObject(args) ? { name, arguments: args } : undefined;
}

/** Balanced `{…}` spans of `text`, outermost only (strings respected). */
function jsonObjects(text: string): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"' && depth > 0) inString = true;
    else if (char === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (char === '}' && depth > 0 && --depth === 0) spans.push(text.slice(start, i + 1));
  }
  return spans;
}

const literal = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|(-?\d+(?:\.\d+)?)|(True|False|true|false))$/s;

/** `name(key="value", n=3)` with literal arguments only; anything else is not read as a call. */
function pythonCall(text: string, tools: ReadonlySet<string>): TextToolCall[] {
  const calls: TextToolCall[] = [];
  for (const match of text.matchAll(/\b([a-z_][a-z0-9_]*)\(((?:[^()"']|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')*)\)/gi)) {
    const [, name = '', body = ''] = match;
    if (!tools.has(name)) continue;
    const args: Json = {};
    const parts = body.match(/\w+\s*=\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^,]+)/g) ?? [];
    // `read_file(path)` in prose names the tool but passes nothing readable: not a call.
    let readable = body.trim() === '' || parts.length > 0;
    for (const part of parts) {
      const eq = part.indexOf('=');
      const value = literal.exec(part.slice(eq + 1).trim());
      if (!value) readable = false;
      else {
        const [, dq, sq, num, bool] = value;
        args[part.slice(0, eq).trim()] =
          dq !== undefined
            ? (parseJson(`"${dq}"`) ?? dq)
            : sq !== undefined
              ? sq.replace(/\\'/g, "'")
              : num !== undefined
                ? Number(num)
                : /^true$/i.test(bool ?? '');
      }
    }
    if (readable) calls.push({ name, arguments: args });
  }
  return calls;
}

/** The fenced blocks and `<tool_call>` tags of `content`, or the whole of it when it has neither. */
function callSources(content: string): string[] {
  const blocks = [
    ...[...content.matchAll(/```[a-z_]*\s*\n([\s\S]*?)```/gi)].map((m) => m[1] ?? ''),
    ...[...content.matchAll(/<tool_call>([\s\S]*?)<\/tool_call>/gi)].map((m) => m[1] ?? ''),
  ];
  return blocks.length > 0 ? blocks : [content];
}

/** The tool calls written in `content`, in order; none when it names no offered tool. */
export function readTextToolCalls(content: string, toolNames: readonly string[]): TextToolCall[] {
  const tools = new Set(toolNames);
  const calls: TextToolCall[] = [];
  for (const source of callSources(content)) {
    const whole = parseJson(source.trim());
    const values = Array.isArray(whole) ? whole : whole !== undefined ? [whole] : jsonObjects(source).map(parseJson);
    const found = values.map((value) => callOf(value, tools)).filter((call) => call !== undefined);
    calls.push(...(found.length > 0 ? found : pythonCall(source, tools)));
  }
  return calls;
}

/**
 * The names of calls written in `content` in a call's shape (`{"name": …, "arguments": …}` and the like) that name no
 * offered tool: `fix_calc.add`, or a heading of the prompt copied as a name. They are answered with the offered names.
 */
export function unknownTextToolNames(content: string, toolNames: readonly string[]): string[] {
  const tools = new Set(toolNames);
  const names: string[] = [];
  for (const source of callSources(content)) {
    const whole = parseJson(source.trim());
    const values = Array.isArray(whole) ? whole : whole !== undefined ? [whole] : jsonObjects(source).map(parseJson);
    for (const value of values) {
      if (!isObject(value)) continue;
      const inner = isObject(value.function) ? value.function : value;
      const name = [inner.name, inner.tool, inner.tool_name, value.function].find((v) => typeof v === 'string');
      const hasArguments = ['arguments', 'parameters', 'args', 'input'].some((key) => key in inner);
      if (typeof name === 'string' && hasArguments && !tools.has(name) && !names.includes(name)) names.push(name);
    }
    // JSON the model broke (a Python """ string in it) still names its tool: read the name where the object does not parse.
    if (values.some(isObject)) continue;
    for (const match of source.matchAll(
      /"(?:name|tool)"\s*:\s*"([^"\\\n]+)"\s*,\s*"(?:arguments|parameters|args|input)"\s*:/g,
    )) {
      const name = match[1] ?? '';
      if (!tools.has(name) && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/**
 * True when `content` ends inside a tool call: an open code fence, an open `<tool_call>` tag, or an unclosed JSON
 * object that names a call. A reply cut by the output limit there lost a call; one cut in prose did not.
 */
export function endsInsideCall(content: string): boolean {
  if ((content.match(/```/g) ?? []).length % 2 === 1) return true;
  if ((content.match(/<tool_call>/gi) ?? []).length > (content.match(/<\/tool_call>/gi) ?? []).length) return true;
  const lastOpen = openObjectStart(content);
  return lastOpen !== undefined && /"(?:name|function|tool)"\s*:/.test(content.slice(lastOpen));
}

/** Where the outermost `{` still open at the end of `text` starts (strings respected), if one is. */
function openObjectStart(text: string): number | undefined {
  let depth = 0;
  let start: number | undefined;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"' && depth > 0) inString = true;
    else if (char === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (char === '}' && depth > 0 && --depth === 0) start = undefined;
  }
  return depth > 0 ? start : undefined;
}
