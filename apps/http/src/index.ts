// The errors use cases throw, for `instanceof`: a call on a closed store throws a StoreClosedError,
// a StoreUnavailableError. Opening throws a StoreOptionsError for a bad option and a SqliteFileError
// for a SQLite file it cannot use (read-only, a folder, not a database).
export {
  ArchivedDocumentImmutableError,
  BadRequestError,
  DomainError,
  type ErrorCode,
  ForbiddenError,
  InvalidActionError,
  InvalidMetadataError,
  InvalidParamError,
  NotChatAppError,
  NotFoundError,
  StoreUnavailableError,
  UnauthorizedError,
} from "@service-api/domain";
export { type ImportIssue, InvalidImportError } from "@service-api/provisioning";
export { SqliteFileError, StoreClosedError, StoreOptionsError } from "@service-api/stores";
export * from "./app.js";
export * from "./config.js";
export * from "./container.js";
export * from "./embed.js";
export { expressMessages } from "./http/express-messages.js";
export * from "./logger.js";
export * from "./server.js";
export * from "./tokens.js";
