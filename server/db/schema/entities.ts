import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { EntityField } from '@common/schemas/entities';
import type { RolePolicy } from '@common/schemas/policies';

export type { EntityField };

/**
 * Definitions of dynamic entities: a name (never changed), a category and typed fields.
 * Each keeps its records in a table of its own (`modules/records/recordTable.ts`).
 */
export const entities = pgTable('entities', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull().unique(),
  description: text().notNull().default(''),
  category: text().notNull(),
  fields: jsonb().$type<EntityField[]>().notNull(),
  /** The field that names a record in relations; null: the first. */
  displayField: text(),
  /** Who may read and change which records and fields, per role (modules/records/recordPolicies.ts). */
  policies: jsonb().$type<RolePolicy[]>().notNull().default([]),
  version: integer().notNull().default(1),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
