import { IncomingMessage, ServerResponse } from "node:http";
import type { Express } from "express";

/**
 * The request and response classes for `createServer` that serves `app`: their instances are born
 * with the app's prototypes. Express gives every request and response its prototypes with
 * `Object.setPrototypeOf`, which makes V8 rebuild the object's hidden class (about 15,000
 * instructions each, counted with callgrind); when the prototype is already the one set, it does
 * nothing.
 */
export function expressMessages(app: Express): {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
} {
  // Built as Node builds them, with the app's prototype instead of Node's: `Reflect.construct` gives
  // the object the layout V8 learned for Node's constructor, which a plain call on `this` would not.
  function Request(...args: unknown[]) {
    return Reflect.construct(IncomingMessage, args, Request);
  }
  Request.prototype = app.request;
  function Response(...args: unknown[]) {
    return Reflect.construct(ServerResponse, args, Response);
  }
  Response.prototype = app.response;
  return {
    IncomingMessage: Request as unknown as typeof IncomingMessage,
    ServerResponse: Response as unknown as typeof ServerResponse,
  };
}
