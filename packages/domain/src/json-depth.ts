/** How deep arrays and objects may nest in a JSON value we accept (as .NET's System.Text.Json allows). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `value` nests arrays and objects deeper than `limit` (`[]` is 1 deep, `[[1]]` 2), found
 * without recursion, so that a value too deep for a recursive walk is refused before one runs.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [item: unknown, depth: number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== "object" || item === null) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}
