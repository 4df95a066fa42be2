import { describe, expect, it } from "vitest";
import { BLANK_NAME, NAME_MAX_LENGTH, NAME_NOT_TEXT, nameProblem, UNSTORABLE_NAME } from "./names.js";

describe("nameProblem", () => {
  it.each(["Acme", " spaced ", "🎉", "x".repeat(NAME_MAX_LENGTH), "🎉".repeat(NAME_MAX_LENGTH)])(
    "accepts %j",
    (name) => {
      expect(nameProblem(name)).toBeUndefined();
    },
  );

  it.each([
    [undefined, NAME_NOT_TEXT],
    [42, NAME_NOT_TEXT],
    ["", BLANK_NAME],
    [" \t\n", BLANK_NAME],
    ["x".repeat(NAME_MAX_LENGTH + 1), "name: Name must be at most 255 characters."],
    ["nul\u0000", UNSTORABLE_NAME],
    ["lone \uD800", UNSTORABLE_NAME],
  ])("refuses %j", (name, message) => {
    expect(nameProblem(name)).toBe(message);
  });

  it("names the field it checks", () => {
    expect(nameProblem("", "owner")).toBe("owner: Name must not be blank.");
  });
});
