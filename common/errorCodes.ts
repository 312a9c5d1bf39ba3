/**
 * The error codes the API answers with, in `code` of every error body. Both sides share
 * them: the client branches on the code, never on the message, which may be reworded.
 * A code is stable once released; add new ones, never rename.
 */
export const errorCodes = {
  /** 400: the request broke a rule; `fields` names each field and what is wrong. */
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  /** 400: the request could not be read (malformed JSON, an empty JSON body, a broken URL encoding). */
  MALFORMED_REQUEST: 'MALFORMED_REQUEST',
  /** 400: a protected item (the admin user or role, the admin's hold on the routes screen). */
  ADMIN_PROTECTED: 'ADMIN_PROTECTED',
  /** 401: no access token, or one that is invalid, expired, or names nobody. */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  /** 401: the username and password do not match an account. */
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  /** 401: the refresh token is unknown, expired, spent or revoked. */
  INVALID_REFRESH_TOKEN: 'INVALID_REFRESH_TOKEN',
  /** 401: the sign-in step (after the password) is unknown, used up or expired: sign in again. */
  SIGN_IN_EXPIRED: 'SIGN_IN_EXPIRED',
  /** 400 (401 at sign-in): the authenticator code, recovery code or passkey does not match. */
  INVALID_SECOND_FACTOR: 'INVALID_SECOND_FACTOR',
  /** 403: signed in, but no role of the user may call this route. */
  FORBIDDEN: 'FORBIDDEN',
  /**
   * 403: a record policy of the user's roles refused the write (the record is outside its
   * condition, or would be after it, or a field it may not set); the message names the policy.
   */
  POLICY_DENIED: 'POLICY_DENIED',
  /** 404: no such item, or no such API route. */
  NOT_FOUND: 'NOT_FOUND',
  /** 409: an account with this email exists. */
  EMAIL_TAKEN: 'EMAIL_TAKEN',
  /** 409: an account with this username exists. */
  USERNAME_TAKEN: 'USERNAME_TAKEN',
  /** 409: a role or an entity with this name exists. */
  NAME_TAKEN: 'NAME_TAKEN',
  /** 409: an item with this id exists. */
  ID_TAKEN: 'ID_TAKEN',
  /** 409: another record has this value of a unique field; `fields` names the field. */
  NOT_UNIQUE: 'NOT_UNIQUE',
  /** 409: records still point at this record (or entity) through a relation; `count` says how many. */
  REFERENCED: 'REFERENCED',
  /**
   * 409: a definition change some records could not follow; nothing changed, and the body's
   * `report` says which records and why.
   */
  DEFINITION_CONFLICT: 'DEFINITION_CONFLICT',
  /**
   * 409: a bulk action some of its items refused: nothing changed, and the body's
   * `report.items` says which items and why (`{ id, code, message }` each).
   */
  BULK_REFUSED: 'BULK_REFUSED',
  /** 409: an authenticator app is already set up (turn it off first to set up another). */
  SECOND_FACTOR_ON: 'SECOND_FACTOR_ON',
  /** 409: a role of the user requires a second factor, and this would remove their last one. */
  SECOND_FACTOR_REQUIRED: 'SECOND_FACTOR_REQUIRED',
  /** 403: adding a sign-in credential needs a recent sign-in (RECENT_SIGN_IN_MINUTES): sign in again. */
  RECENT_SIGN_IN_REQUIRED: 'RECENT_SIGN_IN_REQUIRED',
  /** 403: a personal access token may not call this route (outside its routes, or a session-only one). */
  TOKEN_SCOPE: 'TOKEN_SCOPE',
  /** 409: the change would leave no user with the admin role. */
  LAST_ADMIN: 'LAST_ADMIN',
  /**
   * 409: the item changed since the version the request was based on (`If-Match` or a body
   * `_version`); `current` holds the item as it is now.
   */
  VERSION_CONFLICT: 'VERSION_CONFLICT',
  /** 499: an import stopped by its client (the page left, Stop): nothing was written. */
  IMPORT_STOPPED: 'IMPORT_STOPPED',
  /** 409: the change conflicts with other data (a database constraint refused it). */
  CONFLICT: 'CONFLICT',
  /** 413: the request body is too large. */
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  /** 414: a part of the URL (a path parameter) is too long. */
  URI_TOO_LONG: 'URI_TOO_LONG',
  /** 415: the body is of a type the route does not take. */
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  /** 429: too many attempts; the Retry-After header says when to try again. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** 431: the request's headers, or its URL, are past the server's limit. */
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  /** 500: a fault on the server's side; details only in its log. */
  INTERNAL: 'INTERNAL',
  /** 502: the book lookup service could not be reached or answered nonsense. */
  BOOK_LOOKUP_UNAVAILABLE: 'BOOK_LOOKUP_UNAVAILABLE',
  /** 502: the sign-in provider could not be reached. */
  SIGN_IN_PROVIDER_UNAVAILABLE: 'SIGN_IN_PROVIDER_UNAVAILABLE',
  /** 503: Google sign-in is not configured on this server. */
  SIGN_IN_PROVIDER_NOT_CONFIGURED: 'SIGN_IN_PROVIDER_NOT_CONFIGURED',
  /** 503: the database is not reachable. */
  DATABASE_UNAVAILABLE: 'DATABASE_UNAVAILABLE',
  /** 503: the server is too busy; the Retry-After header says when to try again. */
  OVERLOADED: 'OVERLOADED',
  /** 503: the web app has not been built. */
  CLIENT_NOT_BUILT: 'CLIENT_NOT_BUILT',
} as const;

export type ErrorCode = keyof typeof errorCodes;

/** Every code, for schemas and tests. */
export const ERROR_CODES = Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]];
