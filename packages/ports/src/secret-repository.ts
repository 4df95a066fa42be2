/** The service's own secrets, by name (a signing key made at first start), shared by every instance on one store. Never exported. */
export interface SecretRepository {
  /** The secret stored under `name`; when there is none, `candidate` is stored and returned. Two instances racing both get the one that was stored first. */
  ensure(name: string, candidate: string): Promise<string>;
}
