import type { Clock, IdGenerator, Repositories, Store, TextHasher } from "@service-api/ports";
import type { InjectionToken } from "tsyringe";
import type { Operation } from "../api/operation.js";
import type { JobSignal } from "../background/job-signal.js";
import type { Config } from "../config.js";

/** What a family's use cases are built from. */
export interface FamilyContext {
  store: Store;
  repositories: Repositories;
  clock: Clock;
  ids: IdGenerator;
  /** SHA-256 of text: chunks' `index_node_hash`. */
  hasher: TextHasher;
  config: Config;
  /** Told when a use case has queued a background job, so this process's workers take it at once. */
  jobSignal: JobSignal;
}

/**
 * A resource family (tags, metadata, documents…): its use cases, built in one place, and its
 * operations over them. A new operation touches its family and nothing central.
 */
export interface Family<Name extends string = string, UseCases = unknown> {
  name: Name;
  token: InjectionToken<UseCases>;
  useCases(context: FamilyContext): UseCases;
  operations(useCases: UseCases): Operation[];
}

export function defineFamily<Name extends string, UseCases>(
  family: Family<Name, UseCases>,
): Family<Name, UseCases> {
  return family;
}
