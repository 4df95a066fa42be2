import type { ExtractionLimits } from "../limits.js";
import type { TextBudget } from "../text-budget.js";
import { UnreadableFile } from "../unreadable-file.js";
import { requireOfficeZip } from "../zip/office-file-signature.js";
import { ZipArchive } from "../zip/zip-archive.js";
import { documentText, externalTargets, mainPartName } from "./docx-text.js";

const LABEL = "The DOCX document";
const DEFAULT_MAIN_PART = "word/document.xml";

/**
 * One unit, the body's text (Dify's `WordExtractor`). The archive is checked for decompression bombs
 * before anything is inflated; only the main part and its relationships are read.
 */
export async function readDocx(
  bytes: Uint8Array,
  limits: ExtractionLimits,
  budget: TextBudget,
): Promise<string[]> {
  requireOfficeZip(bytes, LABEL, ".doc");
  const archive = await ZipArchive.open(bytes, limits, LABEL);
  try {
    const packageRelationships = await archive.read("_rels/.rels");
    const mainPart =
      (packageRelationships && mainPartName(xmlText(packageRelationships))) ?? DEFAULT_MAIN_PART;
    const main = await archive.read(mainPart);
    if (main === undefined) {
      throw new UnreadableFile(
        `${LABEL} cannot be read: it has no ${mainPart}, so it is not a Word document.`,
      );
    }
    const relationships = await archive.read(relationshipsPartOf(mainPart));
    const links = relationships ? externalTargets(xmlText(relationships)) : new Map<string, string>();
    return [budget.spend(documentText(xmlText(main), links))];
  } finally {
    archive.close();
  }
}

/** `word/document.xml` → `word/_rels/document.xml.rels`. */
function relationshipsPartOf(part: string): string {
  const slash = part.lastIndexOf("/");
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

// Office XML parts are UTF-8 or UTF-16 with a BOM; TextDecoder reads the BOM.
function xmlText(bytes: Uint8Array): string {
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  const encoding = !utf16 ? "utf-8" : bytes[0] === 0xff ? "utf-16le" : "utf-16be";
  return new TextDecoder(encoding).decode(bytes);
}
