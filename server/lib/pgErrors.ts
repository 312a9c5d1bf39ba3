import type { ErrorCode } from '@common/errorCodes';
import { messages } from '@common/messages';
import { USERS_EMAIL_UNIQUE } from '../db/schema/users';
import { type AppError, conflict } from './errors';

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

/** The PostgreSQL error in an error's cause chain (node-postgres and PGlite alike). */
export function pgErrorFacts(error: unknown): PgErrorFacts | undefined {
  for (let e = error; e instanceof Error; e = e.cause) {
    const { code, constraint, table, column } = e as Error & Record<string, unknown>;
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
  [USERS_EMAIL_UNIQUE]: { code: 'EMAIL_TAKEN', message: messages.server.emailTaken },
  roles_name_unique: { code: 'NAME_TAKEN', message: messages.server.roleNameTaken },
  entities_name_unique: { code: 'NAME_TAKEN', message: messages.server.entityNameTaken },
  // Records are the one table whose id a client may choose.
  entity_records_pkey: { code: 'ID_TAKEN', message: messages.server.recordIdTaken },
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
