import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

describe("loadConfig", () => {
  it("has defaults for everything", () => {
    expect(loadConfig({})).toEqual({
      port: 5001,
      host: "0.0.0.0",
      databaseUrl: "file:./data/service-api.sqlite",
      pool: {
        max: 10,
        connectionTimeoutMs: 5000,
        statementTimeoutMs: 15000,
        idleTimeoutMs: 30000,
        namedStatements: 200,
      },
      postgres: { fieldCountFoldMs: 10_000 },
      sqlite: { mmapSizeBytes: 0, busyTimeoutMs: 5000, synchronous: "normal" },
      logLevel: "info",
      filesUrl: "http://localhost:5001",
      shutdownTimeoutMs: 10_000,
      shutdownDrainMs: 5_000,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      rateLimits: {
        perKey: undefined,
        authFailures: { limit: 100, windowMs: 60_000 },
        redisUrl: undefined,
      },
      trustProxy: false,
      metrics: undefined,
      demo: true,
      workers: 1,
    });
  });

  it("turns demo mode off in production or on request", () => {
    expect(loadConfig({ NODE_ENV: "production" }).demo).toBe(false);
    expect(loadConfig({ DEMO: "off" }).demo).toBe(false);
    expect(loadConfig({ NODE_ENV: "development" }).demo).toBe(true);
    expect(() => loadConfig({ DEMO: "maybe" })).toThrow(/DEMO/);
  });

  it("reads every variable, treating empty ones as unset", () => {
    const config = loadConfig({
      PORT: "8080",
      HOST: "127.0.0.1",
      DATABASE_URL: "file:/srv/kb.sqlite",
      LOG_LEVEL: "warn",
      FILES_URL: "https://files.example.com",
      SHUTDOWN_TIMEOUT_MS: "500",
      SQLITE_MMAP_SIZE: "268435456",
      SQLITE_BUSY_TIMEOUT_MS: "250",
      SQLITE_SYNCHRONOUS: "FULL",
      DATABASE_FIELD_COUNT_FOLD_MS: "60000",
      SHUTDOWN_DRAIN_MS: "15000",
      HEADERS_TIMEOUT_MS: "2000",
      REQUEST_TIMEOUT_MS: "4000",
      RATE_LIMIT_PER_KEY: "600",
      RATE_LIMIT_WINDOW_MS: "1000",
      AUTH_FAILURE_LIMIT: "0",
      REDIS_URL: "redis://cache.internal:6379/2",
      TRUST_PROXY: "10.0.0.0/8, 127.0.0.1",
      METRICS_PORT: "9464",
      UNRELATED: "x",
    });
    expect(config).toEqual({
      port: 8080,
      host: "127.0.0.1",
      databaseUrl: "file:/srv/kb.sqlite",
      pool: expect.objectContaining({ max: 10 }),
      postgres: { fieldCountFoldMs: 60_000 },
      sqlite: { mmapSizeBytes: 268_435_456, busyTimeoutMs: 250, synchronous: "full" },
      logLevel: "warn",
      filesUrl: "https://files.example.com",
      shutdownTimeoutMs: 500,
      shutdownDrainMs: 15_000,
      headersTimeoutMs: 2_000,
      requestTimeoutMs: 4_000,
      rateLimits: {
        perKey: { limit: 600, windowMs: 1_000 },
        authFailures: undefined,
        redisUrl: "redis://cache.internal:6379/2",
      },
      trustProxy: "10.0.0.0/8, 127.0.0.1",
      metrics: { port: 9464, host: "127.0.0.1" },
      demo: true,
      workers: 1,
    });
    expect(loadConfig({ PORT: "", LOG_LEVEL: "" }).port).toBe(5001);
  });

  it("names every invalid variable", () => {
    expect(() => loadConfig({ PORT: "70000", FILES_URL: "not a url" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "70000", FILES_URL: "not a url" })).toThrow(/PORT: .*FILES_URL: /);
  });

  it("refuses a header time-out longer than the request time-out, and an unknown SQLite durability", () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: "5000", REQUEST_TIMEOUT_MS: "1000" })).toThrow(
      /HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ SQLITE_SYNCHRONOUS: "off" })).toThrow(
      /SQLITE_SYNCHRONOUS: expected normal or full/,
    );
  });

  it("reads TRUST_PROXY as Express takes it, and refuses a REDIS_URL that is not Redis's", () => {
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: "loopback" }).trustProxy).toBe("loopback");
    expect(() => loadConfig({ REDIS_URL: "http://cache:6379" })).toThrow(/REDIS_URL: expected a redis:\/\//);
    expect(() => loadConfig({ RATE_LIMIT_PER_KEY: "0" })).toThrow(/RATE_LIMIT_PER_KEY/);
  });

  it("brackets an IPv6 host in the default files URL", () => {
    expect(loadConfig({ HOST: "::1", PORT: "9" }).filesUrl).toBe("http://[::1]:9");
  });
});
