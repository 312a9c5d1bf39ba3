import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { type Database, type Db, openDatabase } from '../db/client';
import { seedDatabase } from '../db/seed';
import { enforceNameRules } from '../lib/nameRules';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    database: Database;
  }
}

interface DbPluginOptions {
  config: Config;
  /** An already open database (tests); the app then leaves closing it to the caller. */
  database?: Database;
}

/** Opens, migrates and seeds the database, and closes it when the app closes. */
export const dbPlugin = fp(
  async (app: FastifyInstance, { config, database: given }: DbPluginOptions) => {
    const database =
      given ??
      (await openDatabase(config, (error) =>
        app.log.error({ err: error }, 'Database connection error'),
      ));
    try {
      await database.migrate();
      await seedDatabase(database.db, config, app.log);
      await enforceNameRules(database.db, app.log);
    } catch (error) {
      if (!given) await database.close();
      throw error;
    }
    app.decorate('database', database);
    app.decorate('db', database.db);
    if (!given) {
      app.addHook('onClose', async () => {
        await database.close();
        app.log.info('Database closed');
      });
    }
  },
  { name: 'db' },
);
