import PDFDocument from "pdfkit";

export interface PdfToWrite {
  /** Each page's lines, written with a standard font (WinAnsi: Latin letters and accents). */
  pages: readonly (readonly string[])[];
  /** Each page also gets these lines in a font mapped to Unicode, for CJK and emoji. */
  unicodeLines?: readonly string[];
  userPassword?: string;
  ownerPassword?: string;
}

/** A PDF written by pdfkit: real text objects, one page per entry of `pages`. */
export async function pdfBytes(pdf: PdfToWrite): Promise<Uint8Array> {
  const document = new PDFDocument({
    autoFirstPage: false,
    pdfVersion: pdf.userPassword || pdf.ownerPassword ? "1.7" : "1.3",
    ...(pdf.userPassword ? { userPassword: pdf.userPassword } : {}),
    ...(pdf.ownerPassword ? { ownerPassword: pdf.ownerPassword, permissions: { copying: false } } : {}),
  });
  const chunks: Buffer[] = [];
  document.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => document.on("end", resolve));
  for (const lines of pdf.pages) {
    document.addPage();
    for (const line of lines) document.text(line);
    if (pdf.unicodeLines) writeUnicodeLines(document, pdf.unicodeLines);
  }
  document.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}

// pdfkit's standard fonts know no CJK, and no font file ships here: the text is written in a
// font without glyphs whose ToUnicode map gives each code its character, which is all a text
// extractor reads. Each character is a two-byte code (Identity-H).
function writeUnicodeLines(document: PDFKit.PDFDocument, lines: readonly string[]): void {
  const characters = [...new Set(lines.flatMap((line) => [...line]))];
  const code = (character: string) => (characters.indexOf(character) + 1).toString(16).padStart(4, "0");
  const toUnicode = document.ref({});
  toUnicode.end(
    [
      "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Unicode def /CMapType 2 def",
      "1 begincodespacerange <0000> <FFFF> endcodespacerange",
      `${characters.length} beginbfchar`,
      ...characters.map((character) => `<${code(character)}> <${utf16BigEndianHex(character)}>`),
      "endbfchar endcmap CMapName currentdict /CMap defineresource pop end end",
    ].join("\n"),
  );
  const descriptor = document.ref({
    Type: "FontDescriptor",
    FontName: "UnicodeText",
    Flags: 4,
    FontBBox: [0, -200, 1000, 800],
    ItalicAngle: 0,
    Ascent: 800,
    Descent: -200,
    CapHeight: 700,
    StemV: 80,
  });
  descriptor.end("");
  const cidFont = document.ref({
    Type: "Font",
    Subtype: "CIDFontType2",
    BaseFont: "UnicodeText",
    CIDSystemInfo: { Registry: new String("Adobe"), Ordering: new String("Identity"), Supplement: 0 },
    FontDescriptor: descriptor,
    DW: 1000,
  });
  cidFont.end("");
  const font = document.ref({
    Type: "Font",
    Subtype: "Type0",
    BaseFont: "UnicodeText",
    Encoding: "Identity-H",
    DescendantFonts: [cidFont],
    ToUnicode: toUnicode,
  });
  font.end("");
  (document.page as unknown as { fonts: Record<string, unknown> }).fonts.UnicodeText = font;
  lines.forEach((line, index) => {
    const codes = [...line].map(code).join("");
    document.addContent(`BT /UnicodeText 12 Tf 72 ${400 - index * 20} Td <${codes}> Tj ET`);
  });
}

function utf16BigEndianHex(character: string): string {
  return Buffer.from(character, "utf16le").swap16().toString("hex").toUpperCase();
}
