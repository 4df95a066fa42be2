import { Parser } from "htmlparser2";

/** An element of an Office XML part, named `prefix:local` with the conventional prefix of its namespace. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

// Parts name namespaces with any prefix they like; Word's are `w`, `r`, `mc`. Transitional and
// Strict OOXML URIs both map to the conventional prefix.
const CONVENTIONAL_PREFIXES: Record<string, string> = {
  "http://schemas.openxmlformats.org/wordprocessingml/2006/main": "w",
  "http://purl.oclc.org/ooxml/wordprocessingml/main": "w",
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships": "r",
  "http://purl.oclc.org/ooxml/officeDocument/relationships": "r",
  "http://schemas.openxmlformats.org/markup-compatibility/2006": "mc",
};

export interface XmlReading {
  /** Elements whose whole subtree is dropped while parsing (formatting, drawings): memory stays small. */
  skipped: ReadonlySet<string>;
  /** Elements whose text is kept (`w:t`); text elsewhere is layout whitespace and is dropped. */
  withText: ReadonlySet<string>;
}

/** Parses an XML part into the elements a reader needs (htmlparser2 in XML mode). */
export function parseOfficeXml(xml: string, reading: XmlReading): XmlElement {
  const root: XmlElement = { name: "#document", attributes: {}, children: [] };
  const open: { element: XmlElement; namespaces: Map<string, string> }[] = [
    { element: root, namespaces: new Map() },
  ];
  let skippedDepth = 0;
  const parser = new Parser(
    {
      onopentag(rawName, rawAttributes) {
        if (skippedDepth > 0) {
          skippedDepth += 1;
          return;
        }
        const parent = open.at(-1)!;
        const namespaces = scopeOf(parent.namespaces, rawAttributes);
        const name = conventionalName(rawName, namespaces, true);
        if (reading.skipped.has(name)) {
          skippedDepth = 1;
          return;
        }
        const attributes: Record<string, string> = {};
        for (const [key, value] of Object.entries(rawAttributes)) {
          if (key !== "xmlns" && !key.startsWith("xmlns:"))
            attributes[conventionalName(key, namespaces, false)] = value;
        }
        const element: XmlElement = { name, attributes, children: [] };
        parent.element.children.push(element);
        open.push({ element, namespaces });
      },
      onclosetag() {
        if (skippedDepth > 0) skippedDepth -= 1;
        else if (open.length > 1) open.pop();
      },
      ontext(text) {
        const current = open.at(-1)!.element;
        if (skippedDepth > 0 || !reading.withText.has(current.name)) return;
        const last = current.children.at(-1);
        if (typeof last === "string") current.children[current.children.length - 1] = last + text;
        else current.children.push(text);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
  return root;
}

function scopeOf(outer: Map<string, string>, attributes: Record<string, string>): Map<string, string> {
  let scope = outer;
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "xmlns" || key.startsWith("xmlns:")) {
      if (scope === outer) scope = new Map(outer);
      scope.set(key === "xmlns" ? "" : key.slice("xmlns:".length), value);
    }
  }
  return scope;
}

// An unprefixed attribute has no namespace; an unprefixed element has the default one.
function conventionalName(raw: string, namespaces: Map<string, string>, isElement: boolean): string {
  const colon = raw.indexOf(":");
  const prefix = colon === -1 ? (isElement ? "" : undefined) : raw.slice(0, colon);
  const local = colon === -1 ? raw : raw.slice(colon + 1);
  const uri = prefix === undefined ? undefined : namespaces.get(prefix);
  const conventional = uri === undefined ? undefined : CONVENTIONAL_PREFIXES[uri];
  return conventional === undefined ? raw : `${conventional}:${local}`;
}

/** The child elements of `element` named `name`, in order. */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter(
    (child): child is XmlElement => typeof child !== "string" && child.name === name,
  );
}

/** The first child element of `element` named `name`. */
export function childNamed(element: XmlElement, name: string): XmlElement | undefined {
  return childrenNamed(element, name)[0];
}
