import { describe, expect, it } from "vitest";
import { hyperlinkFieldUrl, markdownLink } from "./docx-paragraph.js";
import { documentText, externalTargets, mainPartName } from "./docx-text.js";

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const body = (xml: string, prefix = "w") =>
  `<?xml version="1.0"?><${prefix}:document xmlns:${prefix}="${W}" xmlns:r="${R}"><${prefix}:body>${xml}</${prefix}:body></${prefix}:document>`;
const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const field = (instruction: string, shown: string) =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>${instruction}</w:instrText></w:r>` +
  `<w:r><w:fldChar w:fldCharType="separate"/></w:r>${run(shown)}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;
const links = new Map([["rId7", "https://example.com"]]);

describe("documentText", () => {
  it.each([
    [
      "a HYPERLINK field is [text](url)",
      `<w:p>${run("Go ")}${field(' HYPERLINK "https://x.y/z" ', "there")}</w:p>`,
      "Go [there](https://x.y/z)",
    ],
    ["another field shows its result", `<w:p>${run("Page ")}${field(" PAGE ", "3")}</w:p>`, "Page 3"],
    [
      "a \\l HYPERLINK field (an anchor) stays text",
      `<w:p>${field(' HYPERLINK \\l "top" ', "top")}</w:p>`,
      "top",
    ],
    [
      "a link keeps its edge spaces outside the brackets",
      `<w:p>${run("a")}<w:hyperlink r:id="rId7">${run(" b ")}</w:hyperlink>${run("c")}</w:p>`,
      "a [b](https://example.com) c",
    ],
    [
      "a link with an anchor appends it",
      `<w:p><w:hyperlink r:id="rId7" w:anchor="s2">${run("s")}</w:hyperlink></w:p>`,
      "[s](https://example.com#s2)",
    ],
    [
      "text in w:ins, w:sdt and w:smartTag is not read, as in Dify",
      `<w:p>${run("kept")}<w:ins>${run(" inserted")}</w:ins><w:smartTag>${run(" tag")}</w:smartTag></w:p><w:sdt><w:sdtContent><w:p>${run("control")}</w:p></w:sdtContent></w:sdt>`,
      "kept",
    ],
    [
      "a page break is no text, a non-breaking hyphen a hyphen",
      `<w:p><w:r><w:t>a</w:t><w:br w:type="page"/><w:t>b</w:t><w:noBreakHyphen/><w:t>c</w:t></w:r></w:p>`,
      "ab-c",
    ],
    ["entities are decoded", `<w:p>${run("&lt;a&gt; &amp; &#233;")}</w:p>`, "<a> & é"],
    [
      "a nested table in a cell is not read, as in Dify",
      `<w:tbl><w:tr><w:tc><w:p>${run("h")}</w:p><w:tbl><w:tr><w:tc><w:p>${run("inner")}</w:p></w:tc></w:tr></w:tbl></w:tc></w:tr></w:tbl>`,
      "| h |\n| --- |",
    ],
    [
      "a cell's repeated paragraphs are kept once, joined with a space",
      `<w:tbl><w:tr><w:tc><w:p>${run("x")}</w:p><w:p>${run("x")}</w:p><w:p>${run("y")}</w:p></w:tc></w:tr></w:tbl>`,
      "| x y |\n| --- |",
    ],
    [
      "short rows are padded to the widest",
      `<w:tbl><w:tr><w:tc><w:p>${run("a")}</w:p></w:tc></w:tr><w:tr><w:tc><w:p>${run("b")}</w:p></w:tc><w:tc><w:p>${run("c")}</w:p></w:tc></w:tr></w:tbl>`,
      "| a |  |\n| --- | --- |\n| b | c |",
    ],
    ["a table without rows is skipped", `<w:p>${run("x")}</w:p><w:tbl></w:tbl>`, "x"],
  ])("%s", (_behaviour, xml, text) => {
    expect(documentText(body(xml), links)).toBe(text);
  });

  it("reads a namespace bound to another prefix", () => {
    expect(documentText(body("<x:p><x:r><x:t>hi</x:t></x:r></x:p>", "x"), links)).toBe("hi");
  });
});

describe("relationships", () => {
  const rels = (items: string) =>
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;

  it("keeps the external targets by id", () => {
    const xml = rels(
      '<Relationship Id="rId1" Type="x/hyperlink" Target="https://a.b" TargetMode="External"/>' +
        '<Relationship Id="rId2" Type="x/styles" Target="styles.xml"/>',
    );
    expect(externalTargets(xml)).toEqual(new Map([["rId1", "https://a.b"]]));
  });

  it("finds the main part a package names", () => {
    const xml = rels(
      '<Relationship Id="rId1" Type="http://x/officeDocument/2006/relationships/officeDocument" Target="/word/document2.xml"/>',
    );
    expect(mainPartName(xml)).toBe("word/document2.xml");
  });
});

describe("links", () => {
  it.each([
    [' HYPERLINK "https://a.b/c" \\o "tip" ', "https://a.b/c"],
    ["HYPERLINK https://bare.example", "https://bare.example"],
    [' HYPERLINK \\l "anchor" ', undefined],
    [" TOC \\o ", undefined],
  ])("reads the field %j as %j", (instruction, url) => {
    expect(hyperlinkFieldUrl(instruction)).toBe(url);
  });

  it("shows the URL when the link has no text", () => {
    expect(markdownLink("", "https://a.b")).toBe("[https://a.b](https://a.b)");
  });
});
