// Reading the project's markdown as a reader's browser would: its relative links and the anchors its headings make.

/** The lines outside fenced code blocks; a link shown as inline code is not one, so `dropCode` removes those spans. */
function proseLines(text: string, dropCode: boolean): { number: number; line: string }[] {
  const lines: { number: number; line: string }[] = [];
  let fence: string | undefined;
  for (const [index, line] of text.split('\n').entries()) {
    const opener = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (opener && (fence === undefined || opener.startsWith(fence))) {
      fence = fence === undefined ? opener : undefined;
      continue;
    }
    if (fence === undefined)
      lines.push({ number: index + 1, line: dropCode ? line.replace(/(`+)[^`]*?\1/g, '') : line });
  }
  return lines;
}

export interface MarkdownLink {
  /** 1-based line of the link in its file. */
  line: number;
  target: string;
}

/** Links that point inside the repository: inline links, images and reference definitions, not URLs or mail. */
export function relativeLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { number, line } of proseLines(text, true)) {
    const targets = [
      ...[...line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]),
      /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line)?.[1],
    ];
    for (const target of targets)
      if (target && !/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ line: number, target });
  }
  return links;
}

/** The anchors GitHub makes of a file's headings: lower case, punctuation dropped, spaces as `-`, repeats numbered. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line } of proseLines(text, false)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (!heading) continue;
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
