import type { ErrorCode } from '@common/errorCodes';
import { messages } from '@common/messages';
import { USERS_EMAIL_UNIQUE } from '../db/schema/users';
import { VIEWS_OWNER_NAME_UNIQUE, VIEWS_ROLE_NAME_UNIQUE } from '../db/schema/views';
import { AppError, conflict } from './errors';
import { ROLES_NAME_FOLDED_UNIQUE, USERS_USERNAME_FOLDED_UNIQUE } from './nameRules';

/**
 * What of a PostgreSQL error may be told: its code and the names of what refused the
 * write. Never its message or detail, which may quote the values ("Key (email)=(…)").
 */
export interface PgErrorFacts {
  code: string;
  constraint?: string;
  table?: string;
  column?: string;
}

const optionalString = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * An error and its causes. Not by `instanceof Error`: Node's own errors (a refused socket)
 * may come from another realm (a test's sandbox) than the code that wraps them.
 */
function* errorChain(error: unknown): Generator<Error & Record<string, unknown>> {
  for (let e = error, depth = 0; depth < 10; depth++) {
    if (typeof e !== 'object' || e === null || typeof (e as Error).message !== 'string') return;
    yield e as Error & Record<string, unknown>;
    e = (e as Error).cause;
  }
}

/** The PostgreSQL error in an error's cause chain (node-postgres and PGlite alike). */
export function pgErrorFacts(error: unknown): PgErrorFacts | undefined {
  for (const e of errorChain(error)) {
    const { code, constraint, table, column } = e;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return {
        code,
        constraint: optionalString(constraint),
        table: optionalString(table),
        column: optionalString(column),
      };
    }
  }
  return undefined;
}

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

/** The 409 each unique constraint stands for, by its name in the migrations. */
const takenByConstraint: Record<string, { code: ErrorCode; message: string }> = {
  users_username_unique: { code: 'USERNAME_TAKEN', message: messages.server.usernameTaken },
  [USERS_USERNAME_FOLDED_UNIQUE]: {
    code: 'USERNAME_TAKEN',
    message: messages.server.usernameTaken,
  },
  [USERS_EMAIL_UNIQUE]: { code: 'EMAIL_TAKEN', message: messages.server.emailTaken },
  roles_name_unique: { code: 'NAME_TAKEN', message: messages.server.roleNameTaken },
  [ROLES_NAME_FOLDED_UNIQUE]: { code: 'NAME_TAKEN', message: messages.server.roleNameTaken },
  entities_name_unique: { code: 'NAME_TAKEN', message: messages.server.entityNameTaken },
  [VIEWS_OWNER_NAME_UNIQUE]: { code: 'NAME_TAKEN', message: messages.server.viewNameTaken },
  [VIEWS_ROLE_NAME_UNIQUE]: { code: 'NAME_TAKEN', message: messages.server.roleViewNameTaken },
  personal_access_tokens_owner_name_unique: {
    code: 'NAME_TAKEN',
    message: messages.server.accessTokenNameTaken,
  },
};

/**
 * The 409 a database error means, or undefined when it is no conflict (a fault: 500).
 * A unique violation answers the domain code of its constraint (CONFLICT for one not
 * listed); a foreign key violation (what it points to was deleted meanwhile) CONFLICT.
 */
export function conflictOf(error: unknown): AppError | undefined {
  const facts = pgErrorFacts(error);
  if (facts?.code === UNIQUE_VIOLATION) {
    const taken = facts.constraint ? takenByConstraint[facts.constraint] : undefined;
    return conflict(taken?.code ?? 'CONFLICT', taken?.message ?? messages.server.conflict);
  }
  if (facts?.code === FOREIGN_KEY_VIOLATION) return conflict('CONFLICT', messages.server.conflict);
  return undefined;
}

/** Socket errors of a connection to the database that is refused, lost or unreachable. */
const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs of a server that is going away or not yet back: connection exceptions (class
 * 08), shutdowns (57P01 admin, 57P02 crash), "starting up" (57P03), too many connections.
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;
/**
 * node-postgres's own words for a lost connection, which carry no code ("Connection
 * terminated due to connection timeout": a new connection that could not be made in time).
 */
const LOST_CONNECTION = /^(Connection terminated|Client has encountered a connection error)/;
/**
 * pg-pool's words when every connection was busy for its whole connectionTimeoutMillis: a
 * busy pool, not a lost database.
 */
const POOL_BUSY = /^timeout exceeded when trying to connect/;

/** How long a client should wait before trying again when the pool was busy. */
const POOL_BUSY_RETRY_AFTER_S = 1;

/** How long a client should wait before trying again without the database. */
export const DATABASE_RETRY_AFTER_S = 2;

/**
 * A 503 DATABASE_UNAVAILABLE, with Retry-After, when the error (or its cause) says the
 * database could not be reached rather than that it refused the query: a restart or an
 * outage, not a fault of the request or of ours. A 503 OVERLOADED when the request waited
 * for a connection of the pool as long as it may (every one busy with other requests).
 */
export function unavailableOf(error: unknown): AppError | undefined {
  for (const e of errorChain(error)) {
    const { code } = e;
    if (POOL_BUSY.test(e.message))
      return new AppError(503, 'OVERLOADED', messages.server.overloaded, {
        headers: { 'retry-after': String(POOL_BUSY_RETRY_AFTER_S) },
      });
    if (
      (typeof code === 'string' &&
        (CONNECTION_ERRORS.has(code) || UNAVAILABLE_STATES.test(code))) ||
      LOST_CONNECTION.test(e.message)
    ) {
      return databaseUnavailable();
    }
  }
  return undefined;
}

/** The answer while the database cannot be reached. */
export const databaseUnavailable = () =>
  new AppError(503, 'DATABASE_UNAVAILABLE', messages.server.databaseUnavailable, {
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_S) },
  });
