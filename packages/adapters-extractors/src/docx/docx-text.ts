import { type HyperlinkTargets, paragraphText } from "./docx-paragraph.js";
import { tableMarkdown } from "./docx-table.js";
import { childNamed, childrenNamed, parseOfficeXml, type XmlElement } from "./office-xml.js";

// What the reader never needs, dropped while parsing so memory follows the text: formatting, section
// and table properties (but a cell's, for merges), drawings (Dify turns images into links to files it
// stores; we store none), and the wrappers whose text python-docx does not read (`w:ins`, `w:sdt`...).
const SKIPPED = new Set([
  ...["w:rPr", "w:pPr", "w:sectPr", "w:tblPr", "w:tblGrid", "w:trPr", "w:drawing", "w:pict"],
  ...["w:object", "mc:AlternateContent", "w:del", "w:ins", "w:moveFrom", "w:moveTo", "w:sdt"],
  ...["w:smartTag", "w:fldSimple", "w:customXml", "w:commentReference", "w:bookmarkStart"],
]);
const WITH_TEXT = new Set(["w:t", "w:instrText"]);

/**
 * The text of a DOCX main part (`word/document.xml`), as Dify's `WordExtractor`: the body's
 * paragraphs and tables in order, joined with `\n`; an empty paragraph adds `"\n"` (`a`, empty, `b` →
 * `a\n\n\nb`). Headers, footers, footnotes, comments, text boxes, block-level content controls and
 * nested tables are not read, as in Dify.
 */
export function documentText(documentXml: string, links: HyperlinkTargets): string {
  const root = parseOfficeXml(documentXml, { skipped: SKIPPED, withText: WITH_TEXT });
  const document = childNamed(root, "w:document");
  const body = document && childNamed(document, "w:body");
  if (body === undefined) return "";
  const blocks: string[] = [];
  for (const child of body.children) {
    if (typeof child === "string") continue;
    if (child.name === "w:p") blocks.push(paragraphText(child, links) || "\n");
    if (child.name === "w:tbl") {
      const table = tableMarkdown(child, links);
      if (table !== undefined) blocks.push(table);
    }
  }
  return blocks.join("\n");
}

/** The targets of a part's external relationships (`TargetMode="External"`), by id. */
export function externalTargets(relationshipsXml: string): Map<string, string> {
  const root = parseOfficeXml(relationshipsXml, { skipped: new Set(), withText: new Set() });
  const targets = new Map<string, string>();
  for (const relationship of relationshipElements(root)) {
    const { Id: id, Target: target, TargetMode: mode } = relationship.attributes;
    if (id !== undefined && target !== undefined && mode === "External") targets.set(id, target);
  }
  return targets;
}

/** The part a package's `_rels/.rels` names as its main document, without a leading `/`. */
export function mainPartName(packageRelationshipsXml: string): string | undefined {
  const root = parseOfficeXml(packageRelationshipsXml, { skipped: new Set(), withText: new Set() });
  const main = relationshipElements(root).find((relationship) =>
    relationship.attributes.Type?.endsWith("/officeDocument"),
  );
  return main?.attributes.Target?.replace(/^\//, "");
}

function relationshipElements(root: XmlElement): XmlElement[] {
  const relationships = childNamed(root, "Relationships");
  return relationships === undefined ? [] : childrenNamed(relationships, "Relationship");
}
