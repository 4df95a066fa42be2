/** Whether the server is draining: shutting down, but still answering until its drain time ends. */
export class ServerLifecycle {
  #draining = false;

  get draining(): boolean {
    return this.#draining;
  }

  startDraining(): void {
    this.#draining = true;
  }
}
