// A small JUnit XML reader for pytest's --junitxml output: one entry per <testcase>, with its outcome.

export type CaseOutcome = 'passed' | 'failed' | 'error' | 'skipped';

export interface JunitCase {
  classname: string;
  name: string;
  /** Present with junit_family=xunit1 (pytest's `file` attribute). */
  file?: string;
  outcome: CaseOutcome;
}

// Attribute values may hold ">" inside quotes, so the tag body is read as quoted strings or other characters.
const testcasePattern = /<testcase\b((?:[^>"']|"[^"]*"|'[^']*')*?)(\/>|>([\s\S]*?)<\/testcase\s*>)/g;
const attributePattern = /([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Reads every <testcase>; CDATA and comments are dropped first so their text cannot fake a tag. */
export function parseJunitXml(xml: string): JunitCase[] {
  const text = xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '').replace(/<!--[\s\S]*?-->/g, '');
  const cases: JunitCase[] = [];
  for (const match of text.matchAll(testcasePattern)) {
    const attributes = parseAttributes(match[1] ?? '');
    const body = match[3] ?? '';
    const entry: JunitCase = {
      classname: attributes.classname ?? '',
      name: attributes.name ?? '',
      outcome: outcomeOf(body),
    };
    if (attributes.file) entry.file = attributes.file;
    cases.push(entry);
  }
  return cases;
}

// A test that failed and then errored in teardown counts as failed: the failure is the more telling fact.
function outcomeOf(body: string): CaseOutcome {
  if (/<failure\b/.test(body)) return 'failed';
  if (/<error\b/.test(body)) return 'error';
  if (/<skipped\b/.test(body)) return 'skipped';
  return 'passed';
}

function parseAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of text.matchAll(attributePattern)) {
    const name = match[1] ?? '';
    attributes[name] = decodeEntities(match[2] ?? match[3] ?? '');
  }
  return attributes;
}

const namedEntities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the five XML entities and numeric character references. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, entity: string) => {
    if (entity.startsWith('#x')) return safeCodePoint(parseInt(entity.slice(2), 16), whole);
    if (entity.startsWith('#')) return safeCodePoint(parseInt(entity.slice(1), 10), whole);
    return namedEntities[entity] ?? whole;
  });
}

function safeCodePoint(code: number, fallback: string): string {
  return code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}
