import { sql } from 'drizzle-orm';
import { check, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { roles } from './roles';
import { users } from './users';

/** The unique names of views: per owner and list, and per role and list. */
export const VIEWS_OWNER_NAME_UNIQUE = 'views_owner_grid_name_unique';
export const VIEWS_ROLE_NAME_UNIQUE = 'views_role_grid_name_unique';

/**
 * Saved views of the lists: a name for a query of a list's URL. A view is either a user's
 * own (`ownerId`) or everyone's in a role (`roleId`), never both: a role's view outlives
 * whoever saved it (the audit log says who).
 */
export const views = pgTable(
  'views',
  {
    id: uuid().primaryKey().defaultRandom(),
    ownerId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid().references(() => roles.id, { onDelete: 'cascade' }),
    grid: text().notNull(),
    name: text().notNull(),
    query: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex(VIEWS_OWNER_NAME_UNIQUE).on(table.ownerId, table.grid, table.name),
    uniqueIndex(VIEWS_ROLE_NAME_UNIQUE).on(table.roleId, table.grid, table.name),
    check('views_one_owner', sql`(${table.ownerId} is null) <> (${table.roleId} is null)`),
    check('views_query_length', sql`length(${table.query}) <= 2000`),
  ],
);
