import { isStorableText } from "@service-api/domain";
import { pathOf } from "./issues.js";

interface Visit {
  value: unknown;
  key: PropertyKey | undefined;
  parent: Visit | undefined;
}

const pathTo = (visit: Visit): string => {
  const segments: PropertyKey[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) segments.unshift(at.key!);
  return pathOf(segments);
};

/**
 * The JSON paths of every string, key or value, that no store can hold as it is (a NUL, a lone
 * surrogate), up to `limit` of them. Walks without recursion, however deep the content nests.
 */
export function unstorableTextPaths(content: unknown, limit = 20): string[] {
  const found: string[] = [];
  const pending: Visit[] = [{ value: content, key: undefined, parent: undefined }];
  for (let visit = pending.pop(); visit && found.length < limit; visit = pending.pop()) {
    const { value } = visit;
    if (typeof value === "string") {
      if (!isStorableText(value)) found.push(pathTo(visit));
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--)
        pending.push({ value: value[index], key: index, parent: visit });
    } else if (typeof value === "object" && value !== null) {
      for (const [key, child] of Object.entries(value).reverse()) {
        if (!isStorableText(key)) found.push(`${pathTo(visit)} (a key)`);
        pending.push({ value: child, key, parent: visit });
      }
    }
  }
  return found;
}
