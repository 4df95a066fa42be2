import { describe, expect, it } from "vitest";
import { apiKeyKindOf, displayPrefixOf, shouldRecordKeyUse } from "./api-key.js";

describe("API keys", () => {
  it("know their kind by prefix", () => {
    expect(apiKeyKindOf("app-abc")).toBe("app");
    expect(apiKeyKindOf("ds-abc")).toBe("dataset");
    expect(apiKeyKindOf("sk-abc")).toBeUndefined();
  });

  it("show only the kind prefix and four characters", () => {
    expect(displayPrefixOf("app-abcdefgh")).toBe("app-abcd");
    expect(displayPrefixOf("ds-abcdefgh")).toBe("ds-abcd");
  });

  it("record their use at most once a minute", () => {
    expect(shouldRecordKeyUse(null, 100)).toBe(true);
    expect(shouldRecordKeyUse(100, 159)).toBe(false);
    expect(shouldRecordKeyUse(100, 160)).toBe(true);
  });
});
