import { describe, expect, it } from "vitest";
import { connectionSettings } from "./connection-settings.js";

describe("connectionSettings", () => {
  it("reads the URL's connection parameters and adds READ COMMITTED after its own options", () => {
    const settings = connectionSettings(
      "postgres://kb:s3cret@db.internal:6432/kb?sslmode=disable&application_name=kb-api&options=-c%20search_path%3Dkb",
    );
    expect(settings).toMatchObject({
      user: "kb",
      password: "s3cret",
      host: "db.internal",
      port: "6432",
      database: "kb",
      application_name: "kb-api",
      options: "-c search_path=kb -c default_transaction_isolation=read\\ committed",
    });
  });

  it("adds READ COMMITTED alone to a URL without options", () => {
    expect(connectionSettings("postgres://postgres@127.0.0.1/kb").options).toBe(
      "-c default_transaction_isolation=read\\ committed",
    );
  });

  it("leaves the pool's bounds to the pool, whatever the URL's query says", () => {
    const settings = connectionSettings(
      "postgres://postgres@127.0.0.1/kb?max=1&idleTimeoutMillis=5&connectionTimeoutMillis=1&allowExitOnIdle=true",
    );
    for (const name of ["max", "idleTimeoutMillis", "connectionTimeoutMillis", "allowExitOnIdle"])
      expect(settings).not.toHaveProperty(name);
  });
});
