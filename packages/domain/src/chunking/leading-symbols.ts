// Dify's remove_leading_symbols (core/tools/utils/text_processing_utils.py), run on every text_model
// chunk to drop what a split left at its start ("delete Splitter character").

const MARKDOWN_LINK_AT_START = /^\[[^\]]+\]\(https?:\/\/[^)]+\)/;

// General Punctuation without U+2026 (…), Supplemental Punctuation, CJK punctuation without 【 and 】
// (U+3010, U+3011), and ASCII punctuation without ! - [ ] { | } \. Ordinary spaces are not in it.
const LEADING_SYMBOLS =
  /^[\u2000-\u2025\u2027-\u206F\u2E00-\u2E7F\u3000-\u300F\u3012-\u303F"#$%&'()*+,./:;<=>?@^_`~]+/;

/**
 * Drops a leading run of punctuation (`# H` → `H`, `“quote” x` → `quote” x`, `。句` → `句`), unless
 * the text opens with a markdown link `[text](http…)`, which stays whole.
 */
export function removeLeadingSymbols(text: string): string {
  if (MARKDOWN_LINK_AT_START.test(text)) return text;
  return text.replace(LEADING_SYMBOLS, "");
}
