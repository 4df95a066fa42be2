import { Parser } from "htmlparser2";
import { pythonStrip } from "../text/python-text.js";

// Dify reads HTML with BeautifulSoup's `get_text()`: every text node in source order (the title too;
// not script, style, template or comments), entities decoded, source whitespace kept, then stripped.
// With no separator, adjacent blocks weld (`<h1>A</h1><p>B</p>` → `AB`, #42348). Our fix: at a block
// boundary a `\n` is put, and between table cells a `\t` (as the HTML Standard's `innerText`), but
// only where two non-space characters would weld: text Dify already reads apart stays as Dify reads it.

const SKIPPED = new Set(["script", "style", "template"]);
const CELLS = new Set(["td", "th"]);
const BLOCKS = new Set([
  ...["address", "article", "aside", "blockquote", "body", "br", "caption", "center", "dd", "details"],
  ...["dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1"],
  ...["h2", "h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "legend", "li", "main"],
  ...["menu", "nav", "ol", "optgroup", "option", "p", "pre", "section", "summary", "table", "tbody"],
  ...["tfoot", "thead", "title", "tr", "ul"],
]);

type Separator = "" | "\t" | "\n";

/** The text of an HTML document, already decoded to a string. */
export function htmlText(html: string): string {
  const parts: string[] = [];
  let skippedDepth = 0;
  let pending: Separator = "";
  let endsWithSpace = true; // nothing written yet: no separator before the first text
  const boundary = (name: string) => {
    if (BLOCKS.has(name)) pending = "\n";
    else if (CELLS.has(name) && pending === "") pending = "\t";
  };
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIPPED.has(name)) skippedDepth += 1;
        else boundary(name);
      },
      onclosetag(name) {
        if (SKIPPED.has(name)) skippedDepth = Math.max(0, skippedDepth - 1);
        else boundary(name);
      },
      ontext(text) {
        if (skippedDepth > 0 || text === "") return;
        if (pending !== "" && !endsWithSpace && !/^\s/.test(text)) parts.push(pending);
        pending = "";
        parts.push(text);
        endsWithSpace = /\s$/.test(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  return pythonStrip(parts.join(""));
}

/**
 * The encoding an HTML document declares in a `<meta>` of its first bytes (the HTML Standard's
 * prescan looks at 1024), or `undefined`.
 */
export function declaredHtmlEncoding(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  return /<meta[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
}
