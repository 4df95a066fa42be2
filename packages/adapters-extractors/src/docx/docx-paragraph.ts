import { pythonStrip } from "../text/python-text.js";
import { childrenNamed, type XmlElement } from "./office-xml.js";

/** External hyperlink targets of the main part, by relationship id. */
export type HyperlinkTargets = ReadonlyMap<string, string>;

// python-docx's `Run.text`: these run children are text; everything else in a run is not.
const RUN_TEXT: Record<string, (element: XmlElement) => string> = {
  "w:t": (element) => element.children.filter((child) => typeof child === "string").join(""),
  "w:tab": () => "\t",
  "w:ptab": () => "\t",
  "w:cr": () => "\n",
  "w:noBreakHyphen": () => "-",
  // A page or column break is no text; a line break (`textWrapping`, the default) is a newline.
  "w:br": (element) => ((element.attributes["w:type"] ?? "textWrapping") === "textWrapping" ? "\n" : ""),
};

interface OpenField {
  instruction: string;
  result: string;
  inResult: boolean;
}

/**
 * A paragraph's text: its direct runs and `w:hyperlink`s, as python-docx reads them (text in `w:ins`,
 * `w:sdt`, `w:smartTag`, `w:fldSimple` is not read, as in Dify). Our fix (#42831): runs are joined as
 * written, not stripped one by one and welded (`The ` + bold `quick` → `The quick`, Dify `Thequick`);
 * only the paragraph's ends are stripped. External links and `HYPERLINK` fields → `[text](url)`.
 */
export function paragraphText(paragraph: XmlElement, links: HyperlinkTargets): string {
  let text = "";
  const fields: OpenField[] = [];
  const write = (piece: string) => {
    const field = fields.at(-1);
    if (field === undefined) text += piece;
    else if (field.inResult) field.result += piece;
  };
  for (const child of paragraph.children) {
    if (typeof child === "string") continue;
    if (child.name === "w:hyperlink") write(hyperlinkText(child, links));
    if (child.name !== "w:r") continue;
    for (const part of child.children) {
      if (typeof part === "string") continue;
      const type = part.name === "w:fldChar" ? part.attributes["w:fldCharType"] : undefined;
      if (type === "begin") fields.push({ instruction: "", result: "", inResult: false });
      else if (type === "separate" && fields.length > 0) fields.at(-1)!.inResult = true;
      else if (type === "end" && fields.length > 0) {
        const field = fields.pop()!;
        const url = hyperlinkFieldUrl(field.instruction);
        write(url === undefined ? field.result : markdownLink(field.result, url));
      } else if (part.name === "w:instrText" && fields.length > 0 && !fields.at(-1)!.inResult) {
        fields.at(-1)!.instruction += RUN_TEXT["w:t"]!(part);
      } else write(RUN_TEXT[part.name]?.(part) ?? "");
    }
  }
  // A field left open ends in a later paragraph: what it showed here is still text.
  for (const field of fields) text += field.result;
  return pythonStrip(text);
}

function hyperlinkText(hyperlink: XmlElement, links: HyperlinkTargets): string {
  const shown = childrenNamed(hyperlink, "w:r")
    .flatMap((run) =>
      run.children.map((part) => (typeof part === "string" ? "" : (RUN_TEXT[part.name]?.(part) ?? ""))),
    )
    .join("");
  const id = hyperlink.attributes["r:id"];
  const target = id === undefined ? undefined : links.get(id);
  if (target === undefined) return shown; // an anchor inside the document stays plain text, as in Dify
  const anchor = hyperlink.attributes["w:anchor"];
  return markdownLink(shown, anchor ? `${target}#${anchor}` : target);
}

/** `[text](url)`, the text's edge spaces kept outside the brackets; an empty text shows the URL. */
export function markdownLink(shown: string, url: string): string {
  const inner = pythonStrip(shown);
  if (inner === "") return `${shown}[${url}](${url})`;
  const start = shown.indexOf(inner);
  return `${shown.slice(0, start)}[${inner}](${url})${shown.slice(start + inner.length)}`;
}

/** The URL of a `HYPERLINK "url"` field instruction; `undefined` for other fields and `\l` anchors. */
export function hyperlinkFieldUrl(instruction: string): string | undefined {
  const match = /^\s*HYPERLINK\b(.*)$/is.exec(instruction);
  if (match === null || /\\l\b/.test(match[1]!)) return undefined;
  return /"([^"]+)"/.exec(match[1]!)?.[1] ?? /^\s*([^\s\\"]+)/.exec(match[1]!)?.[1];
}
