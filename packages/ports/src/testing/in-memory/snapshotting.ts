import type { Repositories } from "../../repositories.js";

/** State an in-memory repository can copy and put back: how the in-memory store rolls back. */
export interface Snapshotting {
  snapshot(): unknown;
  restore(snapshot: unknown): void;
}

/** A store's repositories, each of which can be copied and put back. */
export type SnapshottingRepositories = { [Name in keyof Repositories]: Repositories[Name] & Snapshotting };

/** A copy of every repository's state, to put back with `restoreAll`. */
export function snapshotAll(repositories: SnapshottingRepositories): Map<string, unknown> {
  return new Map(Object.entries(repositories).map(([name, repository]) => [name, repository.snapshot()]));
}

export function restoreAll(repositories: SnapshottingRepositories, saved: Map<string, unknown>): void {
  for (const [name, repository] of Object.entries(repositories)) repository.restore(saved.get(name));
}

/** `empty`, given a copy of the state of `repositories`: later writes to either leave the other as it is. */
export function copyOf(
  repositories: SnapshottingRepositories,
  empty: SnapshottingRepositories,
): SnapshottingRepositories {
  restoreAll(empty, snapshotAll(repositories));
  return empty;
}

/** Text in code point order, as SQLite compares it and as PostgreSQL's "C" collation does. */
export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export const byName = <T extends { name: string; id: string }>(a: T, b: T) =>
  byText(a.name, b.name) || byText(a.id, b.id);
export const byCreation = <T extends { createdAt: number; id: string }>(a: T, b: T) =>
  a.createdAt - b.createdAt || byText(a.id, b.id);
export const byPosition = <T extends { position: number; id: string }>(a: T, b: T) =>
  a.position - b.position || byText(a.id, b.id);
