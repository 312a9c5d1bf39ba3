import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export interface EntityField {
  name: string;
  label: string;
}

/** Definitions of dynamic entities: a name (never changed), a category and fields. */
export const entities = pgTable('entities', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull().unique(),
  description: text().notNull().default(''),
  category: text().notNull(),
  fields: jsonb().$type<EntityField[]>().notNull(),
  version: integer().notNull().default(1),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Records of every entity, in one table: the field values of each as one JSON object. */
export const entityRecords = pgTable(
  'entity_records',
  {
    id: uuid().primaryKey().defaultRandom(),
    // An entity's name never changes, so it can key its records; they go with it.
    entityName: text()
      .notNull()
      .references(() => entities.name, { onDelete: 'cascade' }),
    fields: jsonb().$type<Record<string, string>>().notNull(),
    /** 1 at creation, +1 per change: a save names the version it edited (optimistic concurrency). */
    version: integer().notNull().default(1),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.entityName, table.createdAt)],
);
