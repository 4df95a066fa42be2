import { Document, Packer, Paragraph, TextRun } from "docx";
import ExcelJS from "exceljs";
import PDFDocument from "pdfkit";
import yazl from "yazl";

/** A DOCX written by the `docx` library: one paragraph per entry, each of its runs. */
export async function docxBytes(paragraphs: readonly (readonly { text: string; bold?: boolean }[])[]) {
  const document = new Document({
    sections: [
      {
        children: paragraphs.map((runs) => new Paragraph({ children: runs.map((run) => new TextRun(run)) })),
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

/** A PDF written by pdfkit, a page per entry; with a password, encrypted. */
export async function pdfBytes(pages: readonly string[], userPassword?: string): Promise<Uint8Array> {
  const document = new PDFDocument({
    autoFirstPage: false,
    pdfVersion: userPassword ? "1.7" : "1.3",
    ...(userPassword ? { userPassword } : {}),
  });
  const chunks: Buffer[] = [];
  document.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => document.on("end", resolve));
  for (const text of pages) {
    document.addPage();
    document.text(text);
  }
  document.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}

/** An XLSX written by exceljs: one sheet of these rows, the first the header. */
export async function xlsxBytes(rows: readonly (readonly (string | number)[])[]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Sheet1");
  for (const row of rows) sheet.addRow([...row]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** A zip of these entries, deflated by yazl. */
export function zipOf(entries: readonly { name: string; content: Buffer }[]): Promise<Uint8Array> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) zip.addBuffer(entry.content, entry.name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    zip.outputStream.on("error", reject);
  });
}

/** A `.docx` that is a decompression bomb: its document part inflates to `mebibytes` MiB of zeros. */
export function docxBomb(mebibytes: number): Promise<Uint8Array> {
  return zipOf([
    { name: "[Content_Types].xml", content: Buffer.from('<?xml version="1.0"?><Types/>') },
    { name: "word/document.xml", content: Buffer.alloc(mebibytes * 1024 * 1024) },
  ]);
}
