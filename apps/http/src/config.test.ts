import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

describe("loadConfig", () => {
  it("has defaults for everything", () => {
    expect(loadConfig({})).toEqual({
      port: 5001,
      host: "0.0.0.0",
      databaseUrl: "file:./data/service-api.sqlite",
      filesDir: undefined,
      pool: {
        max: 10,
        connectionTimeoutMs: 5000,
        statementTimeoutMs: 15000,
        lockTimeoutMs: 5000,
        idleTimeoutMs: 30000,
        namedStatements: 200,
        openTimeoutMs: 30000,
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
      backgroundWorkers: 1,
      jobLeaseMs: 30_000,
      uploadLimitBytes: 15 * 1024 * 1024,
      maxSegmentationLength: 4000,
      blockedUploadExtensions: [],
      secretKey: undefined,
      filesAccessTimeoutSeconds: 300,
      maxSegmentsPerRequest: 1000,
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
      FILES_DIR: "/srv/kb-files",
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
      INDEXING_CONCURRENCY: "3",
      INDEXING_LEASE_MS: "5000",
      UPLOAD_FILE_SIZE_LIMIT_MB: "2",
      INDEXING_MAX_SEGMENTATION_TOKENS_LENGTH: "1000",
      UPLOAD_FILE_EXTENSION_BLACKLIST: "exe, .BAT,,sh",
      SECRET_KEY: "s3cret",
      FILES_ACCESS_TIMEOUT: "60",
      DATASET_MAX_SEGMENTS_PER_REQUEST: "0",
      UNRELATED: "x",
    });
    expect(config).toEqual({
      port: 8080,
      host: "127.0.0.1",
      databaseUrl: "file:/srv/kb.sqlite",
      filesDir: "/srv/kb-files",
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
      backgroundWorkers: 3,
      jobLeaseMs: 5_000,
      uploadLimitBytes: 2 * 1024 * 1024,
      maxSegmentationLength: 1000,
      blockedUploadExtensions: ["exe", "bat", "sh"],
      secretKey: "s3cret",
      filesAccessTimeoutSeconds: 60,
      maxSegmentsPerRequest: 0,
    });
    expect(loadConfig({ PORT: "", LOG_LEVEL: "" }).port).toBe(5001);
  });

  it("names every invalid variable", () => {
    expect(() => loadConfig({ PORT: "70000", FILES_URL: "not a url" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "70000", FILES_URL: "not a url" })).toThrow(/PORT: .*FILES_URL: /);
  });

  it.each([
    ["ftp://files.example.com", "FILES_URL: expected an http:// or https:// URL"],
    ["javascript:alert(1)", "FILES_URL: expected an http:// or https:// URL"],
    ["https://files.example.com/a?x=1", "FILES_URL: expected a base URL without a query or fragment"],
    ["https://files.example.com/#top", "FILES_URL: expected a base URL without a query or fragment"],
  ])("refuses FILES_URL %j, under which no icon URL could be built", (filesUrl, problem) => {
    expect(() => loadConfig({ FILES_URL: filesUrl })).toThrow(problem);
  });

  it("takes an http or https FILES_URL with a path as the base of icon URLs", () => {
    expect(loadConfig({ FILES_URL: "https://cdn.example.com/kb/" }).filesUrl).toBe(
      "https://cdn.example.com/kb/",
    );
    expect(loadConfig({ FILES_URL: "http://10.0.0.5:5001" }).filesUrl).toBe("http://10.0.0.5:5001");
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

  const MILLISECOND_VARIABLES = [
    "SHUTDOWN_DRAIN_MS",
    "SHUTDOWN_TIMEOUT_MS",
    "HEADERS_TIMEOUT_MS",
    "REQUEST_TIMEOUT_MS",
    "RATE_LIMIT_WINDOW_MS",
    "AUTH_FAILURE_WINDOW_MS",
  ];
  const WHOLE_NUMBER_VARIABLES = [
    ...MILLISECOND_VARIABLES,
    "PORT",
    "METRICS_PORT",
    "RATE_LIMIT_PER_KEY",
    "AUTH_FAILURE_LIMIT",
    "WORKERS",
  ];

  it("refuses a time-out longer than Node's timers hold (2147483647 ms), naming it", () => {
    const longest = { HEADERS_TIMEOUT_MS: "2147483647", REQUEST_TIMEOUT_MS: "2147483647" };
    for (const variable of MILLISECOND_VARIABLES) {
      for (const value of ["2147483648", "3000000000"]) {
        const load = () => loadConfig({ ...longest, [variable]: value });
        expect(load).toThrow(ConfigError);
        expect(load).toThrow(new RegExp(`${variable}: expected a whole number ≥ [01] and ≤ 2147483647`));
      }
    }
    const config = loadConfig(Object.fromEntries(MILLISECOND_VARIABLES.map((name) => [name, "2147483647"])));
    expect(config.shutdownDrainMs).toBe(2_147_483_647);
    expect(config.rateLimits.authFailures?.windowMs).toBe(2_147_483_647);
  });

  it("reads a whole number only from plain decimal digits: spaces, signs, exponents and hex are refused", () => {
    for (const variable of WHOLE_NUMBER_VARIABLES) {
      for (const value of [" ", "\t", " 5 ", "5 ", "+5", "-1", "5.0", "1e3", "0x10", "Infinity"]) {
        const load = () => loadConfig({ [variable]: value });
        expect(load, `${variable}=${JSON.stringify(value)}`).toThrow(ConfigError);
        expect(load, `${variable}=${JSON.stringify(value)}`).toThrow(
          new RegExp(`(^|; |: )${variable}: expected a whole number`),
        );
      }
    }
    expect(loadConfig({ PORT: "08080", WORKERS: "2" })).toMatchObject({ port: 8080, workers: 2 });
  });

  it("keeps an empty value unset, but refuses one of only spaces instead of reading it as 0", () => {
    expect(loadConfig({ AUTH_FAILURE_LIMIT: "" }).rateLimits.authFailures?.limit).toBe(100);
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: "" }).shutdownDrainMs).toBe(5_000);
    expect(() => loadConfig({ AUTH_FAILURE_LIMIT: " " })).toThrow(
      /AUTH_FAILURE_LIMIT: expected a whole number ≥ 0/,
    );
    expect(() => loadConfig({ PORT: " " })).toThrow(/PORT: expected a whole number ≥ 0 and ≤ 65535/);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: " " })).toThrow(
      /SHUTDOWN_DRAIN_MS: expected a whole number/,
    );
  });

  it("refuses a TRUST_PROXY that Express's trust proxy would refuse, naming it", () => {
    const refusals: [string, RegExp][] = [
      ["garbage", /\(invalid IP address: garbage\)/],
      ["10.0.0.0/99", /\(invalid range on address: 10.0.0.0\/99\)/],
      ["-1", /\(invalid IP address: -1\)/],
      ["TRUE", /\(invalid IP address: TRUE\)/],
      ["127.1", /\(invalid IP address: 127.1\)/],
      [" ", /\(an empty entry\)/],
      ["loopback,", /\(an empty entry\)/],
      ["99999999999999999999", /\(too many hops\)/],
    ];
    for (const [value, detail] of refusals) {
      const load = () => loadConfig({ TRUST_PROXY: value });
      expect(load, value).toThrow(ConfigError);
      expect(load, value).toThrow(
        /^Invalid configuration: TRUST_PROXY: expected true, false, a number of hops, or /,
      );
      expect(load, value).toThrow(detail);
    }
    for (const value of ["loopback, linklocal, uniquelocal", "::1", "fe80::/10", "10.0.0.1/255.0.0.0"])
      expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(value);
  });

  it("refuses a number of hops with spaces or in a list, which Express would take for an IPv4 address", () => {
    for (const value of ["2 ", " 2", "1,2", "loopback, 2", "0x10"])
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(
        /TRUST_PROXY: expected .*\(a number of hops is digits alone, not an address\)/,
      );
    expect(loadConfig({ TRUST_PROXY: "0" }).trustProxy).toBe(0);
  });

  it("refuses METRICS_PORT on the server's own port and interface, naming both", () => {
    for (const environment of [
      { METRICS_PORT: "5001" },
      { PORT: "9464", METRICS_PORT: "9464" },
      { PORT: "9464", METRICS_PORT: "9464", HOST: "127.0.0.1", METRICS_HOST: "127.0.0.1" },
      { PORT: "9464", METRICS_PORT: "9464", HOST: "127.0.0.1", METRICS_HOST: "0.0.0.0" },
      { PORT: "9464", METRICS_PORT: "9464", HOST: "::", METRICS_HOST: "::1" },
    ]) {
      const load = () => loadConfig(environment);
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(/METRICS_PORT: must differ from PORT \(both \d+ on the same interface\)/);
    }
    expect(loadConfig({ PORT: "0", METRICS_PORT: "0" }).metrics).toEqual({ port: 0, host: "0.0.0.0" });
    expect(
      loadConfig({ PORT: "9464", METRICS_PORT: "9464", HOST: "10.0.0.5", METRICS_HOST: "127.0.0.1" }).metrics,
    ).toEqual({ port: 9464, host: "127.0.0.1" });
  });

  it("refuses a HOST or METRICS_HOST that is only spaces or holds one, without resolving names", () => {
    for (const variable of ["HOST", "METRICS_HOST"]) {
      for (const value of [" ", "\t", " 127.0.0.1", "127.0.0.1 ", "my host"]) {
        const load = () => loadConfig({ METRICS_PORT: "9464", [variable]: value });
        expect(load, `${variable}=${JSON.stringify(value)}`).toThrow(ConfigError);
        expect(load, `${variable}=${JSON.stringify(value)}`).toThrow(
          new RegExp(`(^|; |: )${variable}: expected an address or host name, without spaces`),
        );
      }
    }
    expect(loadConfig({ HOST: "" }).host).toBe("0.0.0.0");
    expect(loadConfig({ HOST: "nonexistent.invalid" }).host).toBe("nonexistent.invalid");
  });

  it("brackets an IPv6 host in the default files URL", () => {
    expect(loadConfig({ HOST: "::1", PORT: "9" }).filesUrl).toBe("http://[::1]:9");
  });
});
