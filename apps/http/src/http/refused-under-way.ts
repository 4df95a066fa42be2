import type { RequestHandler } from "express";

const refused = new WeakSet<object>();

/**
 * Marks a response Node's time-out answered itself (408) while its request's body was still
 * coming: the connection lingers, so the rest of the body may still arrive, but the request is over.
 */
export function refuseUnderWay(response: object): void {
  refused.add(response);
}

/** After a body is read: a request already refused goes no further (no handler acts on it late). */
export const stopIfRefused: RequestHandler = (_req, res, next) => {
  if (!refused.has(res)) next();
};
