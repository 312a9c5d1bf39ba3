import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { ADMIN_ROLE } from '@common/constants';
import { messages } from '@common/messages';
import type { Role, RoleUser } from '@common/schemas/roles';
import { type Db, sessionOf } from '../../db/client';
import { roles } from '../../db/schema/roles';
import { routes } from '../../db/schema/routes';
import { userRoles, users } from '../../db/schema/users';
import { type Actor, recordAudit } from '../../lib/audit';
import { publishChanges } from '../../lib/changeEvents';
import { adminProtected, conflict, notFound } from '../../lib/errors';
import type { ExportColumn } from '../../lib/exports';
import { batchStatement, everyWordIn, inBatches, runOn } from '../../lib/keyset';
import { countAdmins } from '../users/users.service';
import { deletedDocument, recordVersions } from '../../lib/versions';
import { type KeptView, restoreViews, viewsOf } from '../views/views.service';

const toWire = (row: typeof roles.$inferSelect): Role => ({
  _id: row.id,
  name: row.name,
  _version: row.version,
  requireSecondFactor: row.requireSecondFactor,
});

/** Every role, by name. */
export async function listRoles(db: Db): Promise<Role[]> {
  const rows = await db.select().from(roles).orderBy(asc(roles.name));
  return rows.map(toWire);
}

interface RoleExportRow {
  id: string;
  name: string;
  cursor: (string | null)[];
}

/**
 * What a role export can write: what the list shows (not who holds each role, which the
 * list's readers may not be allowed to see).
 */
const ROLE_COLUMNS: ExportColumn<RoleExportRow>[] = [
  { name: '_id', label: 'ID', value: (role) => role.id },
  { name: 'name', label: 'Name', value: (role) => role.name },
];

/** The roles an export writes: those of the quick search, by name, read in keyset batches. */
export function exportRoles(db: Db, { q }: { q?: string }) {
  const batches = inBatches(runOn<RoleExportRow>(sessionOf(db)), (last, limit) =>
    batchStatement({
      source: 'select ro.id::text as id, ro.name from roles ro',
      where: (parameter) => everyWordIn('r.name', q, parameter),
      keys: [{ sql: 'r.name', type: 'text', descending: false, nullable: false }],
      last,
      limit,
    }),
  );
  return { name: 'roles', columns: ROLE_COLUMNS, batches };
}

/** One role. @throws 404 for an unknown id. */
export async function getRole(db: Db, id: string): Promise<Role> {
  const [row] = await db.select().from(roles).where(eq(roles.id, id));
  if (!row) throw notFound('Role');
  return toWire(row);
}

/**
 * Creates a role.
 * @throws 409 NAME_TAKEN when the name is taken (its unique constraint, translated by
 * `lib/pgErrors.ts`).
 */
export async function createRole(db: Db, name: string, actor: Actor): Promise<Role> {
  return db.transaction(async (tx) => {
    const [created] = await tx.insert(roles).values({ name }).returning();
    await recordAudit(tx, actor, {
      action: 'role.create',
      resourceId: created!.id,
      summary: `Added the role ${name}`,
    });
    await publishChanges(tx, actor, [
      { resource: 'roles', id: created!.id, action: 'create', version: created!.version },
    ]);
    return toWire(created!);
  });
}

/** The live events of a role's delete or restore: the role, and the routes and users it touched. */
const roleChanges = (
  role: { id: string; action: 'delete' | 'restore'; version: number },
  routesChanged: { id: string; version: number }[],
  usersChanged: { id: string; version: number }[],
) => [
  { resource: 'roles' as const, ...role },
  ...routesChanged.map((route) => ({
    resource: 'routes' as const,
    action: 'update' as const,
    ...route,
  })),
  ...usersChanged.map((user) => ({
    resource: 'users' as const,
    action: 'update' as const,
    ...user,
  })),
];

/**
 * What a role's delete keeps, so that it can be undone: its name, holders, route grants and
 * saved views.
 */
interface DeletedRole {
  name: string;
  _version: number;
  /** Its members had to sign in with a second factor (absent in deletes made before the rule). */
  requireSecondFactor?: boolean;
  /** The ids of the users who held it. */
  members: string[];
  /** The ids of the routes it was allowed on. */
  grants: string[];
  views: KeptView[];
}

/**
 * Undoes a role's delete: it comes back with its id and its saved views, given back to the
 * users who held it and to the routes it was allowed on, those that still exist; every
 * server then reloads its permissions.
 * @throws 404 when it has no delete to undo (never deleted, or longer ago than
 * UNDO_KEEP_HOURS); 409 CONFLICT when it is not deleted, NAME_TAKEN when another role took
 * its name.
 */
export async function restoreRole(db: Db, id: string, actor: Actor): Promise<Role> {
  return db.transaction(async (tx) => {
    const [live] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.id, id));
    if (live) throw conflict('CONFLICT', messages.server.notDeleted);
    const deleted = (await deletedDocument(tx, 'roles', id, 'Role')) as unknown as DeletedRole;
    const [row] = await tx
      .insert(roles)
      .values({
        id,
        name: deleted.name,
        version: deleted._version + 1,
        requireSecondFactor: deleted.requireSecondFactor ?? false,
      })
      .returning();
    const regranted = deleted.grants.length
      ? await tx
          .update(routes)
          .set({
            allowedRoles: sql`array_append(${routes.allowedRoles}, ${deleted.name})`,
            version: sql`${routes.version} + 1`,
          })
          .where(
            and(
              inArray(routes.id, deleted.grants),
              sql`not (${deleted.name} = any(${routes.allowedRoles}))`,
            ),
          )
          .returning({ id: routes.id, version: routes.version })
      : [];
    const holders = deleted.members.length
      ? await tx
          .update(users)
          .set({ version: sql`${users.version} + 1` })
          .where(inArray(users.id, deleted.members))
          .returning({ id: users.id, version: users.version })
      : [];
    if (holders.length > 0) {
      await tx.insert(userRoles).values(holders.map((user) => ({ userId: user.id, roleId: id })));
    }
    await restoreViews(tx, { roleId: id }, deleted.views);
    // Only a mark that the delete is undone: the role itself is in its table.
    await recordVersions(tx, [
      {
        resource: 'roles',
        documentId: id,
        action: 'restore',
        updatedBy: actor.name ?? '',
        document: { _version: row!.version },
      },
    ]);
    await recordAudit(tx, actor, {
      action: 'role.restore',
      resourceId: id,
      summary: `Restored the role ${deleted.name}`,
    });
    await publishChanges(
      tx,
      actor,
      roleChanges({ id, action: 'restore', version: row!.version }, regranted, holders),
    );
    return toWire(row!);
  });
}

/**
 * Deletes a role, and in the same transaction takes it from its users and from every
 * route grant; every server then reloads its permissions.
 * @throws 404 for an unknown role; 400 for the admin role.
 */
export async function deleteRole(db: Db, id: string, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const [role] = await tx.select().from(roles).where(eq(roles.id, id)).for('update');
    if (!role) throw notFound('Role');
    if (role.name === ADMIN_ROLE) throw adminProtected(messages.server.adminRoleProtected);
    const regranted = await tx
      .update(routes)
      .set({
        allowedRoles: sql`array_remove(${routes.allowedRoles}, ${role.name})`,
        version: sql`${routes.version} + 1`,
      })
      .where(sql`${role.name} = any(${routes.allowedRoles})`)
      .returning({ id: routes.id, version: routes.version });
    // Its holders' role lists change too.
    const holders = await tx
      .update(users)
      .set({ version: sql`${users.version} + 1` })
      .where(
        sql`${users.id} in (select ${userRoles.userId} from ${userRoles} where ${userRoles.roleId} = ${id})`,
      )
      .returning({ id: users.id, version: users.version });
    const kept = await viewsOf(tx, { roleId: id });
    await tx.delete(roles).where(eq(roles.id, id)); // user_roles and views rows cascade
    const document: DeletedRole = {
      name: role.name,
      _version: role.version,
      requireSecondFactor: role.requireSecondFactor,
      members: holders.map((user) => user.id),
      grants: regranted.map((route) => route.id),
      views: kept,
    };
    await recordVersions(tx, [
      {
        resource: 'roles',
        documentId: id,
        action: 'delete',
        updatedBy: actor.name ?? '',
        document: { ...document },
      },
    ]);
    await recordAudit(tx, actor, {
      action: 'role.delete',
      resourceId: id,
      summary: `Deleted the role ${role.name}`,
    });
    await publishChanges(
      tx,
      actor,
      roleChanges({ id, action: 'delete', version: role.version }, regranted, holders),
    );
  });
}

/** Every user, with whether they hold the role. @throws 404 for an unknown role. */
export async function listRoleUsers(db: Db, roleId: string): Promise<RoleUser[]> {
  await getRole(db, roleId);
  const rows = await db
    .select({ id: users.id, username: users.username, roleId: userRoles.roleId })
    .from(users)
    .leftJoin(userRoles, and(eq(userRoles.userId, users.id), eq(userRoles.roleId, roleId)))
    .orderBy(asc(users.username));
  return rows.map((row) => ({ _id: row.id, username: row.username, hasRole: row.roleId !== null }));
}

/**
 * Gives the role to the user, or takes it away if they hold it.
 * @returns whether the user holds the role now.
 * @throws 404 for an unknown role or user; 409 when it would take the admin role from
 * the last user holding it.
 */
export async function toggleRoleUser(
  db: Db,
  roleId: string,
  userId: string,
  actor: Actor,
): Promise<{ hasRole: boolean }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('admins'))`);
    const [role] = await tx.select().from(roles).where(eq(roles.id, roleId));
    if (!role) throw notFound('Role');
    const [user] = await tx
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(eq(users.id, userId));
    if (!user) throw notFound('User');
    // A membership is a change of both the role and the user (their role list).
    const record = async (assigned: boolean) => {
      await recordAudit(tx, actor, {
        action: assigned ? 'role.assign' : 'role.unassign',
        resourceId: roleId,
        summary: assigned
          ? `Gave the role ${role.name} to ${user.username}`
          : `Took the role ${role.name} from ${user.username}`,
      });
      const [roleAfter] = await tx
        .update(roles)
        .set({ version: sql`${roles.version} + 1` })
        .where(eq(roles.id, roleId))
        .returning({ version: roles.version });
      const [userAfter] = await tx
        .update(users)
        .set({ version: sql`${users.version} + 1` })
        .where(eq(users.id, userId))
        .returning({ version: users.version });
      await publishChanges(tx, actor, [
        { resource: 'roles', id: roleId, action: 'update', version: roleAfter!.version },
        { resource: 'users', id: userId, action: 'update', version: userAfter!.version },
      ]);
    };
    const [removed] = await tx
      .delete(userRoles)
      .where(and(eq(userRoles.userId, userId), eq(userRoles.roleId, roleId)))
      .returning();
    if (!removed) {
      await tx.insert(userRoles).values({ userId, roleId });
      await record(true);
      return { hasRole: true };
    }
    if (role.name === ADMIN_ROLE && (await countAdmins(tx)) === 0) {
      throw conflict('LAST_ADMIN', messages.server.lastAdmin); // rolls the removal back
    }
    await record(false);
    return { hasRole: false };
  });
}

/**
 * Makes a second factor required (or not) for the role's members, from their next sign-in.
 * @throws 404 for an unknown id.
 */
export async function setRoleSecondFactor(
  db: Db,
  id: string,
  required: boolean,
  actor: Actor,
): Promise<Role> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(roles)
      .set({ requireSecondFactor: required, version: sql`${roles.version} + 1` })
      .where(eq(roles.id, id))
      .returning();
    if (!updated) throw notFound('Role');
    await recordAudit(tx, actor, {
      action: 'role.update',
      resourceId: id,
      summary: required
        ? `Required a second factor of the members of ${updated.name}`
        : `No longer required a second factor of the members of ${updated.name}`,
    });
    await publishChanges(tx, actor, [
      { resource: 'roles', id, action: 'update', version: updated.version },
    ]);
    return toWire(updated);
  });
}
