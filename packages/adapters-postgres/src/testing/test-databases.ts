import { randomBytes } from "node:crypto";
import pg from "pg";

/** The server PostgreSQL tests use: TEST_POSTGRES_URL, else the local one these machines run. */
export const TEST_SERVER_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** Where, without who: no user, password or query (a password may hide in any of them). */
const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : "the URL given");

async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function postgresAnswers(url = TEST_SERVER_URL): Promise<boolean> {
  try {
    await onServer(url, (client) => client.query("select 1"));
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether PostgreSQL tests can run here. Without a server they are skipped, saying so, except in
 * CI (`CI=true`), where a missing server fails the run instead of letting it pass silently.
 */
export async function requirePostgresForTests(): Promise<boolean> {
  if (await postgresAnswers()) return true;
  const message = `PostgreSQL does not answer at ${hostOf(TEST_SERVER_URL)}: its tests are skipped.`;
  if (process.env.CI === "true") {
    throw new Error(
      `${message.replace("are skipped", "cannot run")} CI requires them; start it or set TEST_POSTGRES_URL.`,
    );
  }
  console.warn(message);
  return false;
}

const uniqueName = (prefix: string) => `${prefix}_${process.pid}_${randomBytes(6).toString("hex")}`;

export interface TestDatabase {
  /** URL of the new database. */
  url: string;
  /** Drops it, disconnecting whoever is still connected. */
  drop(): Promise<void>;
}

/** A database of its own for this test run, so runs on a shared server never see each other. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = uniqueName("service_api_test");
  await onServer(TEST_SERVER_URL, (client) => client.query(`create database ${name}`));
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await onServer(TEST_SERVER_URL, (client) =>
        client.query(`drop database if exists ${name} with (force)`),
      );
    },
  };
}

/**
 * A URL on that database whose unqualified names resolve in a new, empty schema: a fresh store for
 * one test, without the cost of a database.
 */
export async function createTestSchema(databaseUrl: string): Promise<string> {
  const schema = uniqueName("store");
  await onServer(databaseUrl, (client) => client.query(`create schema ${schema}`));
  const url = new URL(databaseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return url.toString();
}
