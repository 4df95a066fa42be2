import { describe, expect, it } from "vitest";
import { batchId, sixDigitsOf, uploadNameOf } from "./batch.js";

describe("batch ids", () => {
  it("are the UTC time to the second and six digits: 20 digits", () => {
    expect(batchId(1_741_273_365, 647_595)).toBe("20250306150245647595");
    expect(batchId(0, 100_000)).toBe("19700101000000100000");
  });

  it.each([
    [0, 100_000],
    [899_999, 999_999],
    [900_000, 100_000],
    [-5, 100_005],
    [2 ** 32 - 1, 100_000 + ((2 ** 32 - 1) % 900_000)],
  ])("take six digits from %i: %i", (random, digits) => {
    expect(sixDigitsOf(random)).toBe(digits);
  });
});

describe("an upload's name", () => {
  it("keeps the first 200 code points, an emoji being one", () => {
    expect(uploadNameOf("a".repeat(201))).toBe("a".repeat(200));
    expect(uploadNameOf("👋".repeat(250))).toBe("👋".repeat(200));
    expect(uploadNameOf("notes")).toBe("notes");
  });
});
