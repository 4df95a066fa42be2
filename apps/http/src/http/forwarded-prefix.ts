import type { Request } from "express";

/** One path of `X-Forwarded-Prefix`: segments of URL path characters, none empty, none `.` or `..`. */
const PREFIX_PATH = /^(?:\/(?!\.{1,2}(?:\/|$))[A-Za-z0-9\-._~!$&'()*+;=:@%]+)*\/?$/;

/**
 * The path a proxy serves this server under, from `X-Forwarded-Prefix` (Traefik's `StripPrefix`,
 * Spring's and ASP.NET's reading: values separated by commas are one path, in order), without a
 * trailing slash: `/svc`. Only a proxy Express trusts (`trust proxy`, the app's that received the
 * request, so an embedding host's own) is heard: from anyone else, or when the value is not a
 * plain path (a scheme, `//host`, a space, `..`), it is "".
 */
export function forwardedPrefix(req: Request): string {
  const header = req.headers["x-forwarded-prefix"];
  if (header === undefined) return "";
  const trusts = req.app.get("trust proxy fn") as ((address: string, hop: number) => boolean) | undefined;
  if (!trusts?.(req.socket.remoteAddress ?? "", 0)) return "";
  const paths = (Array.isArray(header) ? header.join(",") : header).split(",").map((path) => path.trim());
  if (!paths.every((path) => path.startsWith("/") && PREFIX_PATH.test(path))) return "";
  return paths.map((path) => path.replace(/\/$/, "")).join("");
}
