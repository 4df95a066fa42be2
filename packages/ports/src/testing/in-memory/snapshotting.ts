/** State an in-memory repository can copy and put back: how the in-memory store rolls back. */
export interface Snapshotting {
  snapshot(): unknown;
  restore(snapshot: unknown): void;
}

export const byName = <T extends { name: string; id: string }>(a: T, b: T) =>
  a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
export const byCreation = <T extends { createdAt: number; id: string }>(a: T, b: T) =>
  a.createdAt - b.createdAt || a.id.localeCompare(b.id);
export const byPosition = <T extends { position: number; id: string }>(a: T, b: T) =>
  a.position - b.position || a.id.localeCompare(b.id);
