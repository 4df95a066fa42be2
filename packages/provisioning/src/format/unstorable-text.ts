import { isStorableText } from "@service-api/domain";
import { pathOf } from "./issues.js";

interface Visit {
  value: unknown;
  key: PropertyKey | undefined;
  parent: Visit | undefined;
}

const segmentsTo = (visit: Visit): PropertyKey[] => {
  const segments: PropertyKey[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) segments.unshift(at.key!);
  return segments;
};

/** Any index of an array, in a {@link JSON_TEXT} path. */
const INDEX = Symbol("index");

/**
 * Where the stores keep what the file holds as JSON text, every string in it escaped: a NUL or a
 * lone surrogate is stored there as `\u0000`, `\ud800`, and read back as it was. So the API takes
 * such text in a conversation variable's value (as Dify does), and an export may hold it.
 */
const JSON_TEXT: readonly (readonly (string | typeof INDEX)[])[] = [
  ["workspaces", INDEX, "apps", INDEX, "conversations", INDEX, "variables", INDEX, "value"],
];

/** Whether the visit is at a {@link JSON_TEXT} path: its strings, keys or values, are all storable. */
function isJsonText(visit: Visit): boolean {
  if (visit.key !== "value") return false;
  const segments = segmentsTo(visit);
  return JSON_TEXT.some(
    (pattern) =>
      pattern.length === segments.length &&
      pattern.every((expected, index) =>
        expected === INDEX ? typeof segments[index] === "number" : segments[index] === expected,
      ),
  );
}

/**
 * The JSON paths of every string, key or value, that no store can hold as it is (a NUL, a lone
 * surrogate), up to `limit` of them; what the stores keep as JSON text (a variable's value) holds
 * any. Walks without recursion, however deep the content nests.
 */
export function unstorableTextPaths(content: unknown, limit = 20): string[] {
  const found: string[] = [];
  const pending: Visit[] = [{ value: content, key: undefined, parent: undefined }];
  for (let visit = pending.pop(); visit && found.length < limit; visit = pending.pop()) {
    const { value } = visit;
    if (isJsonText(visit)) continue;
    if (typeof value === "string") {
      if (!isStorableText(value)) found.push(pathOf(segmentsTo(visit)));
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--)
        pending.push({ value: value[index], key: index, parent: visit });
    } else if (typeof value === "object" && value !== null) {
      for (const [key, child] of Object.entries(value).reverse()) {
        if (!isStorableText(key)) found.push(`${pathOf(segmentsTo(visit))} (a key)`);
        pending.push({ value: child, key, parent: visit });
      }
    }
  }
  return found;
}
