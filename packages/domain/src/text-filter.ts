const lowerAscii = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

/**
 * Whether `text` holds `filter` as a substring: ASCII letters match either case, everything else
 * (other letters, `%`, `_`, `\`) only itself. Every store filters the same way.
 */
export function matchesTextFilter(text: string, filter: string): boolean {
  return lowerAscii(text).includes(lowerAscii(filter));
}
