import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { isSingleScript, isVisibleName } from '@common/schemas/text';
import { type Db, queryRows } from '../db/client';

/** The unique index on usernames as people read them (see `foldedName`). */
export const USERS_USERNAME_FOLDED_UNIQUE = 'users_username_folded_unique';
/** The unique index on role names as people read them. */
export const ROLES_NAME_FOLDED_UNIQUE = 'roles_name_folded_unique';

/**
 * A name as people read it: its compatibility form (NFKC: `ａｄｍｉｎ` is `admin`, a
 * decomposed `café` the composed one) in lower case (`Admin` is `admin`). Two names that
 * fold alike are one name.
 */
export const foldedName = (name: unknown) => sql`lower(normalize(${name}, NFKC))`;

const FOLDED_UNIQUE = [
  { table: 'users', column: 'username', index: USERS_USERNAME_FOLDED_UNIQUE },
  { table: 'roles', column: 'name', index: ROLES_NAME_FOLDED_UNIQUE },
];

/**
 * Makes names unique as people read them, at every start. Each folded unique index is made
 * once no two names in its table fold alike; names kept from before the rule that do are
 * reported in the log (by id), and left as they are: renaming all but one of each group
 * lets the next start make the index. Usernames that hold invisible characters or mix
 * scripts are reported the same way. Safe when several servers start at once.
 */
export async function enforceNameRules(db: Db, log: FastifyBaseLogger): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('name-rules'))`);
    for (const { table, column, index } of FOLDED_UNIQUE) {
      const [made] = await queryRows(tx, sql`select 1 from pg_indexes where indexname = ${index}`);
      if (made) continue;
      // Writes wait from here to the index: no name that folds like another slips in between.
      await tx.execute(sql`lock table ${sql.identifier(table)} in share mode`);
      const alike = await queryRows<{ ids: string[] }>(
        tx,
        sql`select array_agg(id::text order by id) as ids from ${sql.identifier(table)}
            group by ${foldedName(sql.identifier(column))} having count(*) > 1`,
      );
      if (alike.length > 0) {
        log.warn(
          { table, groups: alike.map((group) => group.ids) },
          `Some ${table} have names that differ only by capitals or Unicode form: until all but one of each group (by id) is renamed, such names are not refused`,
        );
        continue;
      }
      await tx.execute(
        sql`create unique index ${sql.identifier(index)} on ${sql.identifier(table)} (${foldedName(sql.identifier(column))})`,
      );
    }
  });
  const names = await queryRows<{ id: string; username: string }>(
    db,
    sql`select id::text as id, username from users`,
  );
  const unclear = names.filter(
    ({ username }) => !isVisibleName(username) || !isSingleScript(username),
  );
  if (unclear.length > 0) {
    log.warn(
      { ids: unclear.map((user) => user.id) },
      'Some usernames hold invisible or text-direction characters (those cannot sign in with a password), or mix scripts (refused for new names): rename these',
    );
  }
}
