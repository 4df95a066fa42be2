import { PYTHON_WHITESPACE, pythonStrip } from "../text/python-text.js";

// Dify's `MarkdownExtractor.markdown_to_tups` and `extract`, line by line, with two fixes of ours:
// `<…>` inside code is kept (Dify deletes it everywhere, #41986) and a header keeps every `#` that is
// not its opening marker or closing sequence (Dify deletes them all: `## C# notes` → `C notes`).

const HEADER_LINE = new RegExp(`^#+${PYTHON_WHITESPACE}`);
const CODE_FENCE = "```";

interface Section {
  header: string | undefined;
  lines: string[];
}

/**
 * The units of a markdown text (newlines already `\n`): one per header section, in order. Text before
 * the first header is a section without a header, its body alone (possibly `""`); a section with a
 * header is `"\n\n" + header + "\n" + body`, as in Dify.
 */
export function markdownSections(text: string): string[] {
  return splitSections(text).map(({ header, lines }) => {
    const body = pythonStrip(lines.join(""));
    return header === undefined ? body : `\n\n${headerText(header)}\n${body}`;
  });
}

function splitSections(text: string): Section[] {
  const sections: Section[] = [];
  let current: Section = { header: undefined, lines: [] };
  let inCode = false;
  for (const line of text.split("\n")) {
    if (line.startsWith(CODE_FENCE)) {
      inCode = !inCode;
      current.lines.push(`${line}\n`);
    } else if (inCode) {
      current.lines.push(`${line}\n`);
    } else if (HEADER_LINE.test(line)) {
      sections.push(current);
      current = { header: line, lines: [] };
    } else {
      current.lines.push(`${withoutTags(line)}\n`);
    }
  }
  sections.push(current);
  return sections;
}

/** The header's text: the opening `#`s and an ATX closing sequence (` ##` at the end) go. */
export function headerText(line: string): string {
  const withoutMarker = line.replace(/^#+/, "");
  const withoutClosing = withoutMarker.replace(
    new RegExp(`(^|${PYTHON_WHITESPACE})#+${PYTHON_WHITESPACE}*$`),
    "$1",
  );
  return pythonStrip(withoutClosing);
}

// Dify deletes every `<…>` span of a line (`<.*?>`): tags, but also autolinks and `a <b> c`. We keep
// Dify's deletion outside code and keep the spans inside inline code (`` `List<String>` ``).
// A code span: a run of backticks, then text, then a run of the same length (CommonMark).
const INLINE_CODE = /(?<!`)(`+)(?!`)(?:[^\n]*?[^`])?\1(?!`)/g;

function withoutTags(line: string): string {
  let result = "";
  let start = 0;
  for (const match of line.matchAll(INLINE_CODE)) {
    result += line.slice(start, match.index).replace(/<.*?>/g, "") + match[0];
    start = match.index + match[0].length;
  }
  return result + line.slice(start).replace(/<.*?>/g, "");
}
