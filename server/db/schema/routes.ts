import { integer, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';

/**
 * The route-permission table: one row per API route that needs a signed-in user, synced
 * from the server's own route registry at start, with the names of the roles allowed on it.
 */
export const routes = pgTable(
  'routes',
  {
    id: uuid().primaryKey().defaultRandom(),
    routeEntity: text().notNull(),
    routeVerb: text().notNull(),
    routePath: text().notNull(),
    allowedRoles: text().array().notNull().default([]),
    version: integer().notNull().default(1),
  },
  (table) => [unique().on(table.routeVerb, table.routePath)],
);
