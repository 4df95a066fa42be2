import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * The items in slices of `size`, for multi-row statements within the databases' parameter limits.
 * Before each slice after the first it waits one turn of the event loop: SQLite runs a statement
 * synchronously, and a publish of 35,000 chunks would otherwise hold the loop for seconds, with
 * every request (a health check included) waiting on it. The transaction around it is unchanged.
 */
export async function* inSlices<Item>(items: readonly Item[], size: number): AsyncGenerator<Item[]> {
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await nextTurn();
    yield items.slice(start, start + size);
  }
}
