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
}
