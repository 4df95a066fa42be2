import { aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { loose } from "../test-support/loose-input.js";
import { createWorld } from "../test-support/world.js";
import { AuthenticateApiKey } from "./authenticate-api-key.js";

describe("AuthenticateApiKey given a token that is not text", () => {
  it("treats it as an invalid token, reading and writing nothing", async () => {
    const world = createWorld();
    await world.workspaces.save(aWorkspace());
    const authenticate = new AuthenticateApiKey(
      world.apiKeys,
      world.apps,
      world.workspaces,
      world.hasher,
      world.clock,
      (error) => {
        throw error;
      },
    );
    const before = world.contents();
    for (const token of [undefined, null, 42, { token: "ds-x" }]) {
      const invalid = { code: "unauthorized", message: "Access token is invalid" };
      await expect(authenticate.forWorkspace(loose(token))).rejects.toMatchObject(invalid);
      await expect(authenticate.forApp(loose(token))).rejects.toMatchObject(invalid);
    }
    expect(world.contents()).toEqual(before);
    expect(authenticate.grantLookups).toEqual({ kept: 0, read: 0 });
  });
});
