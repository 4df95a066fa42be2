import { describe, expect, it } from "vitest";
import {
  describeJsonType,
  matchVariableType,
  typeMismatchMessage,
  typesAccepting,
  VARIABLE_TYPES,
  type VariableType,
} from "./variable-type.js";

const remoteFile = { type: "image", transfer_method: "remote_url", url: "https://example.com/a.png" };
const localFile = { type: "document", transfer_method: "local_file", upload_file_id: "f-1" };

/** One sample of every JSON shape the rule must tell apart. */
const SAMPLES: Record<string, unknown> = {
  string: "hello",
  emptyString: "",
  integer: 42,
  float: 1.5,
  negative: -3,
  true: true,
  false: false,
  null: null,
  object: { a: 1 },
  emptyObject: {},
  remoteFile,
  localFile,
  emptyArray: [],
  strings: ["a", "b"],
  numbers: [1, 2.5],
  booleans: [true, false],
  objects: [{ a: 1 }, {}],
  files: [remoteFile, localFile],
  mixed: ["a", 1],
  nested: [[1], [2]],
  nulls: [null],
};

const ACCEPTS: Record<VariableType, string[]> = {
  string: ["string", "emptyString"],
  secret: ["string", "emptyString"],
  number: ["integer", "float", "negative"],
  boolean: ["true", "false"],
  object: ["object", "emptyObject", "remoteFile", "localFile"],
  file: ["remoteFile", "localFile"],
  "array[any]": [
    "emptyArray",
    "strings",
    "numbers",
    "booleans",
    "objects",
    "files",
    "mixed",
    "nested",
    "nulls",
  ],
  "array[string]": ["emptyArray", "strings"],
  "array[number]": ["emptyArray", "numbers"],
  "array[boolean]": ["emptyArray", "booleans"],
  "array[object]": ["emptyArray", "objects", "files"],
  "array[file]": ["emptyArray", "files"],
};

describe("matchVariableType", () => {
  for (const type of VARIABLE_TYPES) {
    for (const [sample, value] of Object.entries(SAMPLES)) {
      const expected = ACCEPTS[type].includes(sample);
      it(`${expected ? "accepts" : "rejects"} ${sample} for ${type}`, () => {
        expect(matchVariableType(type, value).matches).toBe(expected);
      });
    }
  }

  it("does not count booleans as numbers", () => {
    expect(matchVariableType("number", true)).toEqual({ matches: false, got: "boolean" });
  });

  it("rejects non-finite numbers", () => {
    expect(matchVariableType("number", Number.NaN).matches).toBe(false);
    expect(matchVariableType("number", Number.POSITIVE_INFINITY).matches).toBe(false);
  });

  it("rejects file objects missing what their transfer method needs", () => {
    expect(matchVariableType("file", { type: "image", transfer_method: "remote_url" }).matches).toBe(false);
    expect(
      matchVariableType("file", { type: "image", transfer_method: "local_file", url: "x" }).matches,
    ).toBe(false);
    expect(matchVariableType("file", { transfer_method: "remote_url", url: "x" }).matches).toBe(false);
    expect(matchVariableType("file", { type: "image", transfer_method: "tool_file", url: "x" }).matches).toBe(
      false,
    );
  });

  it("matches nothing for a type it does not know (stored by a newer version)", () => {
    expect(matchVariableType("date" as VariableType, "2026-11-24")).toEqual({
      matches: false,
      got: "string",
    });
    expect(matchVariableType("array[date]" as VariableType, ["2026-11-24"]).matches).toBe(false);
  });

  it("rejects arrays with one element of the wrong type", () => {
    expect(matchVariableType("array[number]", [1, "2"])).toEqual({ matches: false, got: "array[any]" });
  });
});

describe("a value holding a number past a double's range (1e400, parsed as Infinity)", () => {
  it.each([
    ["object", { a: 1, b: Number.POSITIVE_INFINITY }],
    ["object", { a: { b: [Number.NEGATIVE_INFINITY] } }],
    ["array[any]", ["x", Number.POSITIVE_INFINITY]],
    ["array[object]", [{ a: Number.POSITIVE_INFINITY }]],
    ["array[number]", [1, Number.NEGATIVE_INFINITY]],
  ] as const)("fits no variable: %s refuses %j (JSON would store null for it)", (type, value) => {
    expect(matchVariableType(type, value).matches).toBe(false);
    expect(typesAccepting(value)).toEqual([]);
  });
});

describe("typesAccepting", () => {
  it.each(Object.entries(SAMPLES))("lists the types that accept %s", (sample, value) => {
    const expected = VARIABLE_TYPES.filter((type) => ACCEPTS[type].includes(sample));
    expect(typesAccepting(value)).toEqual(expected);
  });
});

describe("describeJsonType", () => {
  it.each([
    ["x", "string"],
    [1, "number"],
    [Number.POSITIVE_INFINITY, "out-of-range number"],
    [[1, Number.NEGATIVE_INFINITY], "array[number] holding an out-of-range number"],
    [[Number.POSITIVE_INFINITY], "array[number] holding an out-of-range number"],
    [{ a: { b: [Number.POSITIVE_INFINITY] } }, "object holding an out-of-range number"],
    [false, "boolean"],
    [null, "null"],
    [{}, "object"],
    [["a"], "array[string]"],
    [[1, 2], "array[number]"],
    [[true], "array[boolean]"],
    [[{}], "array[object]"],
    [[null], "array[null]"],
    [["a", 1], "array[any]"],
    [[], "array[any]"],
    [[[1]], "array[any]"],
  ])("names %j as %s", (value, expected) => {
    expect(describeJsonType(value)).toBe(expected);
  });
});

describe("typeMismatchMessage", () => {
  it("reads as Dify's message", () => {
    expect(typeMismatchMessage("user_preference", "string", "number")).toBe(
      "Type mismatch: variable 'user_preference' expects string, but got number type",
    );
  });
});
