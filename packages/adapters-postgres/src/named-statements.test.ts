import { describe, expect, it } from "vitest";
import { NamedStatements } from "./named-statements.js";

describe("NamedStatements", () => {
  it("names each text once, up to its limit, and sends the rest unnamed", () => {
    const statements = new NamedStatements(2);
    const first = statements.claim("select 1");
    expect(statements.claim("select 1")).toBe(first);
    const second = statements.claim("select 2");
    expect(second).not.toBe(first);
    expect(statements.claim("select 3")).toBeUndefined();
    expect(statements.size).toBe(2);
    expect(statements.config("select 2", [1])).toEqual({ name: second, text: "select 2", values: [1] });
    expect(statements.config("select 3", [1])).toEqual({ text: "select 3", values: [1] });
  });

  it("names nothing with a limit of 0", () => {
    const statements = new NamedStatements(0);
    expect(statements.claim("select 1")).toBeUndefined();
    expect(statements.config("select 1", [])).toEqual({ text: "select 1", values: [] });
  });
});
