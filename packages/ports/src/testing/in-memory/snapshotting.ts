/** State an in-memory repository can copy and put back: how the in-memory store rolls back. */
export interface Snapshotting {
  snapshot(): unknown;
  restore(snapshot: unknown): void;
}

/** Text in code point order, as SQLite compares it and as PostgreSQL's "C" collation does. */
export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export const byName = <T extends { name: string; id: string }>(a: T, b: T) =>
  byText(a.name, b.name) || byText(a.id, b.id);
export const byCreation = <T extends { createdAt: number; id: string }>(a: T, b: T) =>
  a.createdAt - b.createdAt || byText(a.id, b.id);
export const byPosition = <T extends { position: number; id: string }>(a: T, b: T) =>
  a.position - b.position || byText(a.id, b.id);
