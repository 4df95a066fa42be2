import type { ServerResponse } from "node:http";

/** The status of a request whose client went away before its answer was sent: nginx's "client closed request". */
export const CLIENT_CLOSED = 499;

const closedAs = new WeakMap<ServerResponse, number>();

/**
 * Before the server closes a response's connection itself, unfinished (a request time-out, the end
 * of a shutdown, a failure after the headers): the status that stands for.
 */
export function closingAs(response: ServerResponse, status: number): void {
  closedAs.set(response, status);
}

/** The status a response ended with, as metrics and the access log count it. */
export function statusOf(response: ServerResponse): number {
  return response.writableFinished ? response.statusCode : (closedAs.get(response) ?? CLIENT_CLOSED);
}
