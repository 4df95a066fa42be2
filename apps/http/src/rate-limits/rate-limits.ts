import type { RateLimitRepository } from "@service-api/ports";
import type { Request, RequestHandler, Response } from "express";
import { type Options, rateLimit } from "express-rate-limit";
import type { Logger } from "pino";
import { LIMITED } from "../api/errors.js";
import { sendJson } from "../http/send-json.js";
import { AuthFailureLimit } from "./auth-failure-limit.js";
import { databaseLimitStores, type LimitStores, redisLimitStores } from "./limit-stores.js";

export interface RateLimitSettings {
  /** Requests per key per window (`RATE_LIMIT_PER_KEY`, `RATE_LIMIT_WINDOW_MS`); absent: no limit. */
  perKey: { limit: number; windowMs: number } | undefined;
  /** Failed authentications per client address per window; absent: no limit. */
  authFailures: { limit: number; windowMs: number } | undefined;
  /** Counts in Redis when set, else in the database. */
  redisUrl: string | undefined;
}

/** The limits the server applies, and what they hold open. */
export interface RateLimits {
  /** After a key was accepted: counts the request against the key's limit. */
  perKey: RequestHandler | undefined;
  authFailures: AuthFailureLimit | undefined;
  close(): Promise<void>;
}

export const NO_RATE_LIMITS: RateLimits = {
  perKey: undefined,
  authFailures: undefined,
  close: async () => {},
};

/** Told of each request a limit refused. */
export type OnLimited = (limit: "per_key" | "auth_failures") => void;

export function createRateLimits(
  settings: RateLimitSettings,
  rateLimits: RateLimitRepository,
  logger: Logger,
  onLimited: OnLimited = () => {},
): RateLimits {
  if (!settings.perKey && !settings.authFailures) return NO_RATE_LIMITS;
  const limitLogger = logger.child({ component: "rate-limit" });
  const stores: LimitStores = settings.redisUrl
    ? redisLimitStores(settings.redisUrl, limitLogger)
    : databaseLimitStores(rateLimits, limitLogger);
  // The standard headers (IETF draft 8: RateLimit-Policy, RateLimit) and Retry-After once refused.
  const common: Partial<Options> = { standardHeaders: "draft-8", legacyHeaders: false, logger: limitLogger };

  const perKey =
    settings.perKey &&
    rateLimit({
      ...common,
      ...settings.perKey,
      identifier: "per-key",
      store: stores.create("service-api:key:"),
      keyGenerator: (_req: Request, res: Response) => String(res.locals.principal?.keyId),
      handler: (_req, res) => {
        onLimited("per_key");
        sendJson(res, LIMITED.per_key, 429);
      },
    });

  let authFailures: AuthFailureLimit | undefined;
  if (settings.authFailures) {
    const limiter = rateLimit({
      ...common,
      ...settings.authFailures,
      identifier: "auth-failures",
      store: stores.create("service-api:auth-failures:"),
      // Only failures count: a request the gate let through that then authenticates is taken back.
      skipSuccessfulRequests: true,
      requestWasSuccessful: (_req, res) => res.statusCode !== 401 && res.statusCode !== 429,
      handler: (req, res) => {
        authFailures?.block(
          req,
          (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime,
        );
        onLimited("auth_failures");
        sendJson(res, LIMITED.auth_failures, 429);
      },
    });
    authFailures = new AuthFailureLimit(limiter);
  }
  return { perKey, authFailures, close: () => stores.close() };
}
