// The `remove_urls_emails` rule of Dify's CleanProcessor: e-mails go, markdown links and images are
// protected by placeholders, every other `http(s)://` run up to whitespace goes, then the
// placeholders come back.

import { replaceMarkdownImages, replaceMarkdownLinks } from "./markdown-links.js";
import { PYTHON_WHITESPACE } from "./python-text.js";

const LOCAL_PART = /[A-Za-z0-9_.+-]/;
const DOMAIN_LABEL = /[A-Za-z0-9-]/;
const DOMAIN_REST = /[A-Za-z0-9.-]/;

// Python's `\S`: anything but Python whitespace (a BOM is not whitespace there).
const URL = new RegExp(`https?://[^${PYTHON_WHITESPACE}]+`, "g");
const PLACEHOLDER = /__MARKDOWN_PLACEHOLDER_(0|[1-9][0-9]*)__/g;

function runEnd(text: string, start: number, characters: RegExp): number {
  let end = start;
  while (end < text.length && characters.test(text[end] ?? "")) end++;
  return end;
}

/**
 * Where an e-mail whose local part ends at `atIndex` ends, or -1. Each part of
 * `[a-zA-Z0-9_.+-]+@[a-zA-Z0-9-]+\.[a-zA-Z0-9-.]+` stops at a character the next cannot start
 * with, so the greedy runs decide the match without backtracking.
 */
function emailEnd(text: string, atIndex: number): number {
  if (text[atIndex] !== "@") return -1;
  const labelEnd = runEnd(text, atIndex + 1, DOMAIN_LABEL);
  if (labelEnd === atIndex + 1 || text[labelEnd] !== ".") return -1;
  const end = runEnd(text, labelEnd + 1, DOMAIN_REST);
  return end === labelEnd + 1 ? -1 : end;
}

/**
 * `re.sub(r"([a-zA-Z0-9_.+-]+@[a-zA-Z0-9-]+\.[a-zA-Z0-9-.]+)", "", text)` in one pass. The regex
 * itself retries every start inside a long run of local-part characters (quadratic on a long token);
 * all those starts reach the same `@`, so one try per run gives the same matches.
 */
export function removeEmails(text: string): string {
  let kept = "";
  let copiedTo = 0;
  let index = 0;
  while (index < text.length) {
    if (!LOCAL_PART.test(text[index] ?? "")) {
      index++;
      continue;
    }
    const localEnd = runEnd(text, index, LOCAL_PART);
    const end = emailEnd(text, localEnd);
    if (end === -1) {
      index = localEnd;
      continue;
    }
    kept += text.slice(copiedTo, index);
    copiedTo = end;
    index = end;
  }
  return copiedTo === 0 ? text : kept + text.slice(copiedTo);
}

/** Removes plain URLs, keeping markdown links whole and image URLs (an alt with `]` becomes `image`). */
export function removeUrls(text: string): string {
  const restored: string[] = [];
  const protect = (original: string): string => `__MARKDOWN_PLACEHOLDER_${restored.push(original) - 1}__`;
  const withLinks = replaceMarkdownLinks(text, (label, url) => protect(`[${label}](${url})`));
  const withPlaceholders = replaceMarkdownImages(withLinks, (url) => protect(`![image](${url})`));
  // Dify restores with one `str.replace` per placeholder (quadratic in links); a single pass gives
  // the same text unless a link's own text spells a later placeholder.
  return withPlaceholders
    .replace(URL, "")
    .replace(PLACEHOLDER, (placeholder, index: string) => restored[Number(index)] ?? placeholder);
}
