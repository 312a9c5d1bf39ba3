import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { ADMIN_ROLE, ADMIN_USERNAME } from '@common/constants';
import { messages } from '@common/messages';
import type { BulkResult } from '@common/schemas/entities';
import type { SetPasswordInput, User, UserExportQuery } from '@common/schemas/users';
import { type Db, type Tx, isAnyOf, perDatabase, sessionOf } from '../../db/client';
import { refreshTokens } from '../../db/schema/refreshTokens';
import { roles } from '../../db/schema/roles';
import {
  passkeys,
  personalAccessTokens,
  recoveryCodes,
  totpSecrets,
} from '../../db/schema/signInFactors';
import { userRoles, users } from '../../db/schema/users';
import { versions } from '../../db/schema/versions';
import { type Actor, recordAudit } from '../../lib/audit';
import { publishChanges } from '../../lib/changeEvents';
import { checkVersion } from '../../lib/concurrency';
import {
  AppError,
  type RefusedItem,
  adminProtected,
  badRequest,
  bulkRefused,
  conflict,
  notFound,
} from '../../lib/errors';
import type { ExportColumn } from '../../lib/exports';
import { type OrderKey, batchStatement, everyWordIn, inBatches, runOn } from '../../lib/keyset';
import { hashPassword } from '../../lib/password';
import { conflictOf } from '../../lib/pgErrors';
import { deletedDocument, recordVersions } from '../../lib/versions';
import { type KeptView, restoreViews, viewsOf } from '../views/views.service';

/** Users joined to their roles, by username: a row per (user, role), or per user with none. */
const userRows = (db: Db | Tx) =>
  db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      version: users.version,
      roleId: roles.id,
      roleName: roles.name,
    })
    .from(users)
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(roles, eq(roles.id, userRoles.roleId))
    .orderBy(asc(users.username), asc(roles.name));

type UserRow = Awaited<ReturnType<typeof userRows>>[number];

/** Each user of the rows once, with their roles. */
function withRoles(rows: UserRow[]): User[] {
  const byId = new Map<string, User>();
  for (const row of rows) {
    const user = byId.get(row.id) ?? {
      _id: row.id,
      username: row.username,
      email: row.email,
      roles: [],
      _version: row.version,
    };
    if (row.roleId && row.roleName) user.roles.push({ _id: row.roleId, name: row.roleName });
    byId.set(row.id, user);
  }
  return [...byId.values()];
}

/** The user of `id` with their roles; undefined when there is no such user. */
const selectUser = async (db: Db | Tx, id: string): Promise<User | undefined> =>
  withRoles(await userRows(db).where(eq(users.id, id)))[0];

const everyUserQuery = perDatabase((db) => userRows(db).prepare('every_user'));

/** Every user with their roles; never a password or hash. */
export const listUsers = async (db: Db) => withRoles(await everyUserQuery(db).execute());

/** What a user export can write: the grid's columns. */
const USER_COLUMNS: ExportColumn<UserExportRow>[] = [
  { name: '_id', label: 'ID', value: (user) => user.id },
  { name: 'username', label: 'Username', value: (user) => user.username },
  { name: 'email', label: 'Email', value: (user) => user.email },
  { name: 'roles', label: 'Roles', value: (user) => user.roles },
];
interface UserExportRow {
  id: string;
  username: string;
  email: string | null;
  /** Role names, comma-separated, in name order. */
  roles: string;
  cursor: (string | null)[];
}

/**
 * The users an export writes: those of the quick search (username, email and role names), in
 * the grid's order (by username unless `sort` says otherwise), read in keyset batches.
 */
export function exportUsers(db: Db, { q, sort }: Pick<UserExportQuery, 'q' | 'sort'>) {
  const [field, direction] = (sort ?? 'username:asc').split(':');
  const keys: OrderKey[] = [
    ...(field === 'username'
      ? []
      : [{ sql: `r.${field}`, type: 'text', descending: direction === 'desc', nullable: true }]),
    { sql: 'r.username', type: 'text', descending: direction === 'desc', nullable: false },
  ];
  const source = `select u.id::text as id, u.username, u.email,
      coalesce((select string_agg(ro.name, ', ' order by ro.name) from user_roles ur
                join roles ro on ro.id = ur.role_id where ur.user_id = u.id), '') as roles
    from users u`;
  const batches = inBatches(runOn<UserExportRow>(sessionOf(db)), (last, limit) =>
    batchStatement({
      source,
      where: (parameter) =>
        everyWordIn(`r.username || ' ' || coalesce(r.email, '') || ' ' || r.roles`, q, parameter),
      keys,
      last,
      limit,
    }),
  );
  return { name: 'users', columns: USER_COLUMNS, batches };
}

/** How many users hold the admin role. */
export async function countAdmins(db: Db | Tx): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(roles.name, ADMIN_ROLE));
  return row?.count ?? 0;
}

/**
 * Creates a user with a password and the given roles (by id).
 * @throws 400 for unknown role ids; 409 USERNAME_TAKEN or EMAIL_TAKEN (from the unique
 * constraints, translated by `lib/pgErrors.ts`).
 */
export async function createUser(
  db: Db,
  input: { username: string; email?: string | null; password: string; roles: string[] },
  actor: Actor,
): Promise<User> {
  const passwordHash = await hashPassword(input.password);
  const roleIds = [...new Set(input.roles)];
  return db.transaction(async (tx) => {
    const known = roleIds.length
      ? await tx.select({ id: roles.id }).from(roles).where(inArray(roles.id, roleIds))
      : [];
    const unknown = roleIds.filter((id) => !known.some((role) => role.id === id));
    if (unknown.length > 0) {
      throw badRequest(`Unknown role ids: ${unknown.join(', ')}`, [
        { field: 'body.roles', message: 'must be ids of existing roles' },
      ]);
    }
    const [created] = await tx
      .insert(users)
      .values({ username: input.username, email: input.email ?? null, passwordHash })
      .returning({ id: users.id });
    const userId = created!.id;
    if (roleIds.length > 0) {
      await tx.insert(userRoles).values(roleIds.map((roleId) => ({ userId, roleId })));
    }
    const user = (await selectUser(tx, userId))!;
    const held = user.roles.map((role) => role.name).join(', ');
    await recordAudit(tx, actor, {
      action: 'user.create',
      resourceId: userId,
      summary: `Added the user ${user.username}${held ? ` with the roles ${held}` : ''}`,
    });
    await publishChanges(tx, actor, [
      { resource: 'users', id: userId, action: 'create', version: 1 },
    ]);
    return user;
  });
}

/**
 * Changes a user's username and email.
 * @throws 404 for an unknown user; 409 USERNAME_TAKEN or EMAIL_TAKEN (unique constraints); 400
 * when renaming the admin user (the protections below are keyed by that name); 409
 * VERSION_CONFLICT when `base` names another version than the current one.
 */
export async function updateUser(
  db: Db,
  id: string,
  input: { username: string; email?: string | null },
  actor: Actor,
  base: readonly number[] = [],
): Promise<User> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!current) throw notFound('User');
    await checkVersion(current, base, async () => (await selectUser(tx, id))!);
    if (current.username === ADMIN_USERNAME && input.username !== ADMIN_USERNAME) {
      throw adminProtected(messages.server.adminUserProtected);
    }
    await tx
      .update(users)
      .set({
        username: input.username,
        email: input.email ?? null,
        version: sql`${users.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(users.id, id));
    const renamed = current.username === input.username ? '' : ` (was ${current.username})`;
    await recordAudit(tx, actor, {
      action: 'user.update',
      resourceId: id,
      summary: `Changed the user ${input.username}${renamed}`,
    });
    const user = (await selectUser(tx, id))!;
    await publishChanges(tx, actor, [
      { resource: 'users', id, action: 'update', version: user._version },
    ]);
    return user;
  });
}

/**
 * What a user's delete keeps, so that it can be undone: the account as it was, with its
 * roles and its own saved views.
 */
interface DeletedUser {
  username: string;
  email: string | null;
  passwordHash: string | null;
  googleSubject: string | null;
  sessionGeneration: number;
  _version: number;
  roles: string[];
  views: KeptView[];
}

/**
 * Deletes users (`chosen`, with their roles; never the user named admin), each with a delete
 * version that keeps what it took. The hash stays in the database it was in, never in an
 * answer, until UNDO_KEEP_HOURS have passed (lib/retention.ts).
 */
async function removeUsers(tx: Tx, chosen: User[], actor: Actor): Promise<void> {
  const viewsOfUser = new Map<string, KeptView[]>();
  for (const user of chosen) viewsOfUser.set(user._id, await viewsOf(tx, { ownerId: user._id }));
  const rolesOf = new Map(chosen.map((user) => [user._id, user.roles.map((role) => role._id)]));
  const rows = await tx
    .delete(users)
    .where(
      and(
        isAnyOf(
          users.id,
          chosen.map((user) => user._id),
          'uuid',
        ),
        ne(users.username, ADMIN_USERNAME),
      ),
    )
    .returning();
  await recordVersions(
    tx,
    rows.map((row) => {
      const document: DeletedUser = {
        username: row.username,
        email: row.email,
        passwordHash: row.passwordHash,
        googleSubject: row.googleSubject,
        sessionGeneration: row.sessionGeneration,
        _version: row.version,
        roles: rolesOf.get(row.id) ?? [],
        views: viewsOfUser.get(row.id) ?? [],
      };
      return {
        resource: 'users' as const,
        documentId: row.id,
        action: 'delete' as const,
        updatedBy: actor.name ?? '',
        document: { ...document },
      };
    }),
  );
}

/**
 * Undoes deletes of users (`ids`), in one transaction: each account comes back with its id,
 * password, email and the roles it held that still exist, with its audit line and live
 * event, and its own saved views. Sessions it had stay ended (their access tokens are of an
 * older session generation). Refused whole (409 BULK_REFUSED, per user) when one has no
 * delete to undo (404: never deleted, or longer ago than UNDO_KEEP_HOURS), is not deleted
 * (CONFLICT), or another user took its name or email (or its Google account: CONFLICT).
 */
export async function bulkRestoreUsers(db: Db, ids: string[], actor: Actor): Promise<BulkResult> {
  const chosen = [...new Set(ids)];
  return db.transaction(async (tx) => {
    // Every id looked at once first: those with no delete to undo are refused without
    // statements of their own (one by one, thousands of them would hold the server).
    const live = new Set(
      (
        await tx
          .select({ id: users.id })
          .from(users)
          .where(isAnyOf(users.id, chosen, 'uuid'))
      ).map((user) => user.id),
    );
    const lastAction = new Map(
      (
        await tx
          .selectDistinctOn([versions.documentId], {
            id: versions.documentId,
            action: versions.action,
          })
          .from(versions)
          .where(and(eq(versions.resource, 'users'), isAnyOf(versions.documentId, chosen, 'uuid')))
          .orderBy(versions.documentId, desc(versions.versionDate), desc(versions.id))
      ).map((row) => [row.id, row.action]),
    );
    const refusals = new Map<string, RefusedItem>();
    for (const id of chosen) {
      if (live.has(id) || (lastAction.has(id) && lastAction.get(id) !== 'delete'))
        refusals.set(id, { id, code: 'CONFLICT', message: messages.server.notDeleted });
      else if (!lastAction.has(id))
        refusals.set(id, { id, code: 'NOT_FOUND', message: 'User not found' });
    }
    for (const id of chosen) {
      if (refusals.has(id)) continue;
      try {
        // A savepoint each: a refused one does not end the transaction, so all are named.
        await tx.transaction((one) => restoreUser(one, id, actor));
      } catch (error) {
        const known = error instanceof AppError ? error : conflictOf(error);
        if (!known) throw error;
        refusals.set(id, { id, code: known.code, message: known.message });
      }
    }
    // Named in the order asked.
    const refused = chosen.flatMap((id) => refusals.get(id) ?? []);
    if (refused.length) throw bulkRefused(refused);
    return { ids: chosen };
  });
}

/** Brings back one deleted user (see bulkRestoreUsers), within `tx`. */
async function restoreUser(tx: Tx, id: string, actor: Actor): Promise<void> {
  if (await selectUser(tx, id)) throw conflict('CONFLICT', messages.server.notDeleted);
  const deleted = (await deletedDocument(tx, 'users', id, 'User')) as unknown as DeletedUser;
  await tx.insert(users).values({
    id,
    username: deleted.username,
    email: deleted.email,
    passwordHash: deleted.passwordHash,
    googleSubject: deleted.googleSubject,
    sessionGeneration: deleted.sessionGeneration + 1,
    version: deleted._version + 1,
  });
  const kept = deleted.roles.length
    ? await tx.select({ id: roles.id }).from(roles).where(inArray(roles.id, deleted.roles))
    : [];
  if (kept.length > 0) {
    await tx.insert(userRoles).values(kept.map((role) => ({ userId: id, roleId: role.id })));
  }
  await restoreViews(tx, { ownerId: id }, deleted.views);
  const version = deleted._version + 1;
  // Only a mark that the delete is undone: the account itself is in its table.
  await recordVersions(tx, [
    {
      resource: 'users',
      documentId: id,
      action: 'restore',
      updatedBy: actor.name ?? '',
      document: { _version: version },
    },
  ]);
  await recordAudit(tx, actor, {
    action: 'user.restore',
    resourceId: id,
    summary: `Restored the user ${deleted.username}`,
  });
  await publishChanges(tx, actor, [{ resource: 'users', id, action: 'restore', version }]);
}

/**
 * Deletes a user; their refresh tokens go with them, so their sessions end.
 * @throws 404 for an unknown user; 400 for the admin user; 409 for the last admin.
 */
export async function deleteUser(db: Db, id: string, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    // Serialises admin-count checks, so two deletions cannot remove the last two admins.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('admins'))`);
    const user = await selectUser(tx, id);
    if (!user) throw notFound('User');
    if (user.username === ADMIN_USERNAME) throw adminProtected(messages.server.adminUserProtected);
    if (user.roles.some((role) => role.name === ADMIN_ROLE) && (await countAdmins(tx)) <= 1) {
      throw conflict('LAST_ADMIN', messages.server.lastAdmin);
    }
    await removeUsers(tx, [user], actor);
    await recordAudit(tx, actor, {
      action: 'user.delete',
      resourceId: id,
      summary: `Deleted the user ${user.username}`,
    });
    await publishChanges(tx, actor, [
      { resource: 'users', id, action: 'delete', version: user._version },
    ]);
  });
}

/**
 * Deletes the chosen users in one transaction, each with its audit line and live event.
 * Refused whole (409 BULK_REFUSED, per user) when one is the admin user, or when the
 * deletion would leave no user with the admin role (each admin chosen is named). Users
 * deleted meanwhile are left out; the answer names those it deleted.
 */
export async function bulkDeleteUsers(db: Db, ids: string[], actor: Actor): Promise<BulkResult> {
  const chosen = [...new Set(ids)];
  return db.transaction(async (tx) => {
    // As deleteUser: admin-count checks run one at a time.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('admins'))`);
    const found = withRoles(await userRows(tx).where(isAnyOf(users.id, chosen, 'uuid')));
    const byId = new Map(found.map((user) => [user._id, user]));
    const admins = found.filter((user) => user.roles.some((role) => role.name === ADMIN_ROLE));
    const leavesNoAdmin = admins.length > 0 && (await countAdmins(tx)) <= admins.length;
    const refused = chosen.flatMap((id): RefusedItem[] => {
      const user = byId.get(id);
      // Deleted meanwhile: what was asked is so.
      if (!user) return [];
      if (user.username === ADMIN_USERNAME)
        return [{ id, code: 'ADMIN_PROTECTED', message: messages.server.adminUserProtected }];
      if (leavesNoAdmin && admins.includes(user))
        return [{ id, code: 'LAST_ADMIN', message: messages.server.lastAdmin }];
      return [];
    });
    if (refused.length) throw bulkRefused(refused);
    await removeUsers(tx, found, actor);
    await recordAudit(
      tx,
      actor,
      ...found.map((user) => ({
        action: 'user.delete' as const,
        resourceId: user._id,
        summary: `Deleted the user ${user.username}`,
      })),
    );
    await publishChanges(
      tx,
      actor,
      found.map((user) => ({
        resource: 'users' as const,
        id: user._id,
        action: 'delete' as const,
        version: user._version,
      })),
    );
    return { ids: found.map((user) => user._id) };
  });
}

/**
 * Sets a user's password (an administrator's action) and ends every session of theirs in
 * the same transaction: their refresh tokens are revoked, and the session generation is
 * bumped so access tokens issued before no longer authenticate (see `authenticate`).
 * @throws 404 for an unknown user.
 */
export async function setUserPassword(
  db: Db,
  id: string,
  input: SetPasswordInput,
  now: Date,
  actor: Actor,
): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    // The user's row first, then the tokens: a refresh locks them in the same order
    // (refreshSession), so one in flight finishes before the revocation below begins,
    // successor included, and one arriving later waits and finds its token revoked.
    const [updated] = await tx
      .update(users)
      .set({
        passwordHash,
        sessionGeneration: sql`${users.sessionGeneration} + 1`,
        updatedAt: now,
      })
      .where(eq(users.id, id))
      .returning({ id: users.id, username: users.username });
    if (!updated) throw notFound('User');
    await recordAudit(tx, actor, {
      action: 'user.password_reset',
      resourceId: id,
      summary: `Set the password of ${updated.username}, ended their sessions and revoked their access tokens`,
    });
    // A password set by an administrator is a recovery: no credential of before goes on.
    await tx.delete(personalAccessTokens).where(eq(personalAccessTokens.userId, id));
    await tx
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.userId, id), isNull(refreshTokens.revokedAt)));
  });
}

/**
 * Removes every second factor of a user (authenticator app, recovery codes, passkeys), for
 * one who lost them: they sign in with their password again (and, should a role of theirs
 * require a second factor, set one up at that sign-in). Their access tokens are revoked too.
 * @throws 400 for one's own (the profile turns them off, with a code); 404 for an unknown user.
 */
export async function resetSecondFactor(db: Db, id: string, actor: Actor): Promise<void> {
  // One's own factors are turned off from one's profile, with a code: not here without one.
  if (id === actor.id) throw badRequest(messages.server.resetOwnFactors);
  await db.transaction(async (tx) => {
    const [user] = await tx
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, id))
      .for('update');
    if (!user) throw notFound('User');
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, id));
    await tx.delete(totpSecrets).where(eq(totpSecrets.userId, id));
    await tx.delete(passkeys).where(eq(passkeys.userId, id));
    await tx.delete(personalAccessTokens).where(eq(personalAccessTokens.userId, id));
    await recordAudit(tx, actor, {
      action: 'user.second_factor_reset',
      resourceId: id,
      summary: `Reset the second factors of ${user.username} (authenticator app, recovery codes, passkeys) and revoked their access tokens`,
    });
  });
}
