// What the pool and its threads say to each other. A thread runs one call at a time.

/** Pool → thread: a call to run. */
export interface ThreadCall<Request> {
  id: number;
  request: Request;
}

/** Thread → pool: it is listening (sent once, when its modules are loaded), or a call's answer. */
export type ThreadMessage<Response> =
  | { kind: "ready" }
  | { kind: "answer"; id: number; ok: true; value: Response }
  | { kind: "answer"; id: number; ok: false; message: string };
