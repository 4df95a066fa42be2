import type { Clock, IdGenerator, Repositories, TokenHasher } from "@service-api/ports";
import type { ImportSummary } from "./import-summary.js";

/** What the writers of an import share: the transaction's repositories, the runtime ports, the tally. */
export interface WriteContext {
  repositories: Repositories;
  clock: Clock;
  ids: IdGenerator;
  hasher: TokenHasher;
  summary: ImportSummary;
  onDocument: () => void;
  /**
   * Records a write the store refused (a record of another owner, a stored type, a taken name) at
   * the record's JSON path. The writers go on without what depends on it, so that every problem is
   * named; the import then fails whole, its transaction rolled back.
   */
  refuse: (path: string, message: string) => void;
}

/** The message for a record whose id another owner's record holds: a record never moves. */
export const heldElsewhere = (id: string, holder: string): string => `id ${id} is held by ${holder}`;
