import { describe, expect, it } from "vitest";
import { Streamed, settled, writeJson } from "./streamed-json.js";

const streamed = <T>(...items: T[]) =>
  new Streamed<T>(async function* () {
    yield* items;
  });

async function text(value: unknown): Promise<string> {
  const pieces: string[] = [];
  await writeJson(value, (piece) => {
    pieces.push(piece);
  });
  return pieces.join("");
}

const CASES: [string, () => unknown][] = [
  ["a number", () => 1],
  ["null", () => null],
  ["an empty streamed array", () => streamed()],
  ["an object with an empty streamed array", () => ({ version: 1, items: streamed() })],
  [
    "streamed arrays in streamed items, beside plain values",
    () => ({
      version: 1,
      workspaces: streamed(
        {
          id: "a",
          empty: [],
          nothing: {},
          left: undefined,
          datasets: streamed({ documents: streamed(1, 2) }),
        },
        { id: "b", datasets: streamed(), deep: { list: [1, { x: "y" }], text: "line\nbreak \u2028 \ud800" } },
      ),
    }),
  ],
  ["a streamed array of arrays", () => streamed([], [1, [2, []]], { a: [] })],
  ["an object whose first value is left out", () => ({ skipped: undefined, list: streamed("x") })],
];

describe("writeJson", () => {
  it.each(CASES)("writes %s as JSON.stringify(…, null, 2) writes it, read", async (_name, value) => {
    expect(await text(value())).toBe(JSON.stringify(await settled(value()), null, 2));
  });

  it("reads the items of a streamed array only as it writes them", async () => {
    const read: number[] = [];
    const pieces: string[] = [];
    const value = {
      items: new Streamed(async function* () {
        for (const item of [1, 2]) {
          read.push(item);
          yield item;
        }
      }),
    };
    await writeJson(value, (piece) => {
      pieces.push(`${read.length}:${piece}`);
    });
    expect(pieces).toEqual(['0:{\n  "items": ', "1:[\n    ", "1:1", "2:,\n    ", "2:2", "2:\n  ]", "2:\n}"]);
  });

  it("refuses a streamed array where JSON.stringify would meet it", async () => {
    await expect(text([streamed(1)])).rejects.toThrow("writeJson");
  });
});
