import { describe, expect, it } from "vitest";
import { connectionSettings } from "./connection-settings.js";

describe("connectionSettings", () => {
  it("reads the URL's connection parameters and adds READ COMMITTED after its own options", () => {
    const settings = connectionSettings(
      "postgres://kb:s3cret@db.internal:6432/kb?sslmode=disable&application_name=kb-api&options=-c%20search_path%3Dkb",
      { lockTimeoutMs: 5000 },
    );
    expect(settings).toMatchObject({
      user: "kb",
      password: "s3cret",
      host: "db.internal",
      port: "6432",
      database: "kb",
      application_name: "kb-api",
      options: "-c lock_timeout=5000 -c search_path=kb -c default_transaction_isolation=read\\ committed",
    });
  });

  it("adds the lock time-out and READ COMMITTED to a URL without options, the time-out as an option", () => {
    const settings = connectionSettings("postgres://postgres@127.0.0.1/kb", { lockTimeoutMs: 0 });
    expect(settings.options).toBe("-c lock_timeout=0 -c default_transaction_isolation=read\\ committed");
    // Not a startup parameter of its own, which PgBouncer would refuse.
    expect(settings).not.toHaveProperty("lock_timeout");
  });

  it("lets the URL's own options set the lock time-out: a later -c wins", () => {
    const settings = connectionSettings("postgres://postgres@127.0.0.1/kb?options=-c%20lock_timeout%3D750", {
      lockTimeoutMs: 5000,
    });
    expect(settings.options).toBe(
      "-c lock_timeout=5000 -c lock_timeout=750 -c default_transaction_isolation=read\\ committed",
    );
  });

  it("leaves the pool's bounds to the pool, whatever the URL's query says", () => {
    const settings = connectionSettings(
      "postgres://postgres@127.0.0.1/kb?max=1&idleTimeoutMillis=5&connectionTimeoutMillis=1&allowExitOnIdle=true",
      { lockTimeoutMs: 5000 },
    );
    for (const name of ["max", "idleTimeoutMillis", "connectionTimeoutMillis", "allowExitOnIdle"])
      expect(settings).not.toHaveProperty(name);
  });
});
