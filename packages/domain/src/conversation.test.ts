import { describe, expect, it } from "vitest";
import type { App, AppMode } from "./app.js";
import { ensureChatApp, ensureVariableUpdate, MAX_VARIABLE_VALUE_BYTES } from "./conversation.js";
import { InvalidParamError, NotChatAppError } from "./errors.js";

const app = (mode: AppMode): App => ({
  id: "a",
  workspaceId: "w",
  name: "a",
  mode,
  enableApi: true,
  status: "normal",
  description: "",
  createdBy: null,
});

describe("ensureChatApp", () => {
  it.each<AppMode>(["chat", "agent-chat", "advanced-chat"])(
    "lets %s apps hold conversation variables",
    (mode) => {
      expect(() => ensureChatApp(app(mode))).not.toThrow();
    },
  );
  it.each<AppMode>(["workflow", "completion", "agent"])("refuses %s apps with not_chat_app", (mode) => {
    expect(() => ensureChatApp(app(mode))).toThrow(NotChatAppError);
  });
});

describe("ensureVariableUpdate", () => {
  it("requires a non-empty user before anything else", () => {
    for (const user of [undefined, "", 42, null]) {
      expect(() => ensureVariableUpdate({ user, value: undefined })).toThrow(
        expect.objectContaining({ code: "invalid_param", field: "user" }),
      );
    }
  });

  it("requires a value, but accepts null as one (the type rule refuses it later)", () => {
    expect(() => ensureVariableUpdate({ user: "u", value: undefined })).toThrow(InvalidParamError);
    expect(ensureVariableUpdate({ user: "u", value: null })).toEqual({ user: "u", value: null });
  });

  it("refuses a value parsing JSON could not give, before measuring it", () => {
    const cycle: unknown[] = [];
    cycle.push(cycle);
    for (const value of [cycle, 1n, { at: new Date(0) }, [undefined], () => 1]) {
      expect(() => ensureVariableUpdate({ user: "u", value })).toThrow(
        expect.objectContaining({
          code: "invalid_param",
          field: "value",
          message: "value must be a JSON value, nested at most 64 levels deep.",
        }),
      );
    }
  });

  it("refuses values over 200 KB", () => {
    const big = "x".repeat(MAX_VARIABLE_VALUE_BYTES);
    expect(() => ensureVariableUpdate({ user: "u", value: big })).toThrow(/too large/);
    expect(ensureVariableUpdate({ user: "u", value: big.slice(2) }).value).toHaveLength(
      MAX_VARIABLE_VALUE_BYTES - 2,
    );
  });

  it("measures the value in UTF-8 bytes, not characters", () => {
    // "é" is 2 bytes: half as many characters as the limit, and a few more, are over it.
    const twoByte = "é".repeat(MAX_VARIABLE_VALUE_BYTES / 2);
    expect(() => ensureVariableUpdate({ user: "u", value: twoByte })).toThrow(
      `value is too large: ${MAX_VARIABLE_VALUE_BYTES + 2} bytes, at most ${MAX_VARIABLE_VALUE_BYTES}.`,
    );
    expect(ensureVariableUpdate({ user: "u", value: twoByte.slice(2) }).value).toBe(twoByte.slice(2));
    // "€" is 3 bytes in one UTF-16 unit, the most a unit takes: exactly the limit with the quotes, then over it.
    const threeByte = "€".repeat(Math.floor((MAX_VARIABLE_VALUE_BYTES - 2) / 3));
    expect(ensureVariableUpdate({ user: "u", value: threeByte }).value).toBe(threeByte);
    expect(() => ensureVariableUpdate({ user: "u", value: `${threeByte}€` })).toThrow(
      `value is too large: ${MAX_VARIABLE_VALUE_BYTES + 3} bytes`,
    );
    // "😀" is one code point in two UTF-16 units and 4 bytes.
    const fourByte = "😀".repeat(MAX_VARIABLE_VALUE_BYTES / 4);
    expect(() => ensureVariableUpdate({ user: "u", value: fourByte })).toThrow(/too large: 204802 bytes/);
  });
});
