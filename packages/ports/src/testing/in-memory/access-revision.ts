/** The access revision an in-memory store's keys, apps and workspaces share; it only grows. */
export class AccessRevision {
  #value = 0;

  get value(): number {
    return this.#value;
  }

  bump(): void {
    this.#value += 1;
  }
}
