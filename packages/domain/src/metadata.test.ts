import { describe, expect, it } from "vitest";
import { isMetadataFieldType, metadataFieldNameProblem, typedMetadataValue } from "./metadata.js";

describe("metadataFieldNameProblem", () => {
  it.each([
    ["", "name: Name must not be blank."],
    [" ", "name: Name must not be blank."],
    ["x".repeat(256), "name: Metadata name cannot exceed 255 characters."],
    ["document_name", "Metadata name already exists in Built-in fields."],
    ["source", "Metadata name already exists in Built-in fields."],
    ["a\u0000b", "name: Name must not contain NUL characters or unpaired surrogates."],
    ["q\udfff", "name: Name must not contain NUL characters or unpaired surrogates."],
  ])("refuses %j", (name, message) => {
    expect(metadataFieldNameProblem(name)).toBe(message);
  });

  it.each([undefined, 7, null])("refuses %j, which is not text", (name) => {
    expect(metadataFieldNameProblem(name)).toBe("name: Name must be a string.");
  });

  it.each(["author", "x".repeat(255), "🎉".repeat(255), "Source", "document_name "])("accepts %j", (name) => {
    expect(metadataFieldNameProblem(name)).toBeUndefined();
  });
});

describe("isMetadataFieldType", () => {
  it.each(["string", "number", "time"])("knows %j", (type) => expect(isMetadataFieldType(type)).toBe(true));
  it.each(["bogus", "String", "", undefined, 1])("refuses %j", (type) => {
    expect(isMetadataFieldType(type)).toBe(false);
  });
});

describe("typedMetadataValue", () => {
  it.each([
    ["string", "Ada", "Ada"],
    ["string", "", ""],
    ["number", 42, "42"],
    ["number", 1.5, "1.5"],
    ["number", "042", "42"],
    ["number", "1.50", "1.5"],
    ["number", "-1.5e3", "-1500"],
    ["number", "+2", "2"],
    ["number", ".5", "0.5"],
    ["time", 1_700_000_000, "1700000000"],
    ["time", "1700000000", "1700000000"],
    ["time", "-5", "-5"],
    ["time", "007", "7"],
    ["time", -0, "0"],
  ] as const)("stores a %s %j as %j", (type, value, text) => {
    expect(typedMetadataValue(type, value)).toEqual({ ok: true, text });
  });

  it.each(["string", "number", "time"] as const)("clears a %s field with null", (type) => {
    expect(typedMetadataValue(type, null)).toEqual({ ok: true, text: null });
  });

  it.each([
    ["string", 1, "must be a string."],
    ["string", "a\u0000b", "must not contain NUL characters or unpaired surrogates."],
    ["string", "q\ud800", "must not contain NUL characters or unpaired surrogates."],
    ["string", true, "must be a string."],
    ["number", " 1", "must be a finite number or numeric string."],
    ["number", "0x10", "must be a finite number or numeric string."],
    ["number", "NaN", "must be a finite number or numeric string."],
    ["number", "Infinity", "must be a finite number or numeric string."],
    ["number", "1e999", "must be a finite number or numeric string."],
    ["number", "", "must be a finite number or numeric string."],
    ["number", true, "must be a finite number or numeric string."],
    ["number", Number.POSITIVE_INFINITY, "must be a finite number or numeric string."],
    ["number", Number.NEGATIVE_INFINITY, "must be a finite number or numeric string."],
    ["string", Number.POSITIVE_INFINITY, "must be a string."],
    ["time", Number.POSITIVE_INFINITY, "must be a Unix timestamp in whole seconds."],
    ["time", 1.5, "must be a Unix timestamp in whole seconds."],
    ["time", "1.0", "must be a Unix timestamp in whole seconds."],
    ["time", "+5", "must be a Unix timestamp in whole seconds."],
    ["time", 2 ** 53, "must be a Unix timestamp in whole seconds."],
    ["time", "9007199254740993", "must be a Unix timestamp in whole seconds."],
    ["time", [1], "must be a Unix timestamp in whole seconds."],
  ] as const)("refuses a %s %j", (type, value, reason) => {
    expect(typedMetadataValue(type, value)).toEqual({ ok: false, reason });
  });

  // A pattern that could split a run of digits many ways took the square of its length to refuse
  // one: 100,000 digits and an "x" held the event loop for 16 s (the time-out below fails it).
  it.each([
    ["digits", `${"1".repeat(100_000)}x`],
    ["digits after a point", `1.${"1".repeat(100_000)}x`],
    ["exponent digits", `1e${"1".repeat(100_000)}x`],
  ])(
    "refuses a number string of 100,000 %s and a letter in linear time",
    (_what, value) => {
      expect(typedMetadataValue("number", value)).toEqual({
        ok: false,
        reason: "must be a finite number or numeric string.",
      });
    },
    5_000, // About 1 ms now; the square of the length was 16 s.
  );
});
