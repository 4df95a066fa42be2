/** A migration that failed, its cause in the message: what an operator reads is often only the message. */
export function migrationFailed(database: "SQLite" | "PostgreSQL", cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new Error(`${database} migration failed: ${reason}`, { cause });
}
