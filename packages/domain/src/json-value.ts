import { MAX_JSON_DEPTH } from "./json-depth.js";

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Whether `value` is what parsing JSON text could have given, nested at most `limit` deep: null,
 * booleans, numbers but NaN, strings, and arrays and plain objects of them. Anything else (undefined,
 * a function, a bigint, a `Date`, a `Map`, a hole, a cycle) would not come back as it was given, or
 * not at all. Walked without recursion, so that a value too deep for a recursive walk is refused.
 */
export function isJsonValue(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const pending: [item: unknown, depth: number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item === "string" || typeof item === "boolean") continue;
    if (typeof item === "number") {
      if (Number.isNaN(item)) return false;
      continue;
    }
    if (typeof item !== "object" || depth >= limit) return false;
    if (Array.isArray(item)) {
      // Indexed, not iterated: a hole reads as undefined, which is refused.
      for (let index = 0; index < item.length; index += 1) pending.push([item[index], depth + 1]);
    } else if (isPlainObject(item)) {
      for (const child of Object.values(item)) pending.push([child, depth + 1]);
    } else {
      return false;
    }
  }
  return true;
}
