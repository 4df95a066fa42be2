import type { ExtractionLimits } from "../limits.js";
import { decodeText } from "../text/decode-text.js";
import type { TextBudget } from "../text-budget.js";
import { declaredHtmlEncoding, htmlText } from "./html-text.js";

/**
 * One unit, the document's text (Dify's `HtmlExtractor`; see `htmlText`). Decoding as BeautifulSoup
 * settles it, in our order: UTF-8 (a BOM dropped), then the encoding a `<meta>` declares, then detection.
 */
export function readHtml(bytes: Uint8Array, _limits: ExtractionLimits, budget: TextBudget): string[] {
  const html = decodeText(bytes, { keepUtf8Bom: false, declaredEncoding: declaredHtmlEncoding(bytes) });
  return [budget.spend(htmlText(html))];
}
