import { and, asc, count, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { messages } from '@common/messages';
import type { Identity } from '@common/schemas/auth';
import {
  type CreateRoleViewInput,
  type CreateViewInput,
  type SavedView,
  type UpdateViewInput,
  VIEWS_PER_GRID_MAX,
} from '@common/schemas/views';
import type { Db, Tx } from '../../db/client';
import { roles } from '../../db/schema/roles';
import { views } from '../../db/schema/views';
import { type Actor, recordAudit } from '../../lib/audit';
import { badRequest, conflict, notFound } from '../../lib/errors';

const columns = {
  id: views.id,
  ownerId: views.ownerId,
  grid: views.grid,
  name: views.name,
  query: views.query,
  roleId: roles.id,
  roleName: roles.name,
};

interface ViewRow {
  id: string;
  ownerId: string | null;
  grid: string;
  name: string;
  query: string;
  roleId: string | null;
  roleName: string | null;
}

const toWire = (row: ViewRow, userId: string): SavedView => ({
  _id: row.id,
  grid: row.grid,
  name: row.name,
  query: row.query,
  role: row.roleId ? { _id: row.roleId, name: row.roleName ?? '' } : null,
  mine: row.ownerId === userId,
});

/**
 * The views of a list the user sees: their own, then those of each of their roles (by
 * role, then name); `everyRole`: those of every role (for who keeps them).
 */
export async function listViews(
  db: Db,
  grid: string,
  user: Identity,
  { everyRole = false } = {},
): Promise<SavedView[]> {
  const rows = await db
    .select(columns)
    .from(views)
    .leftJoin(roles, eq(roles.id, views.roleId))
    .where(
      and(
        eq(views.grid, grid),
        or(
          eq(views.ownerId, user._id),
          everyRole ? isNotNull(views.roleId) : undefined,
          user.roles.length > 0 ? inArray(roles.name, user.roles) : undefined,
        ),
      ),
    )
    .orderBy(sql`${views.roleId} is not null`, asc(roles.name), asc(views.name));
  return rows.map((row) => toWire(row, user._id));
}

/** Refuses a view past the most one owner keeps on a list. */
async function checkRoom(tx: Tx, grid: string, owner: { ownerId: string } | { roleId: string }) {
  // One save at a time per owner and list: two at once cannot both find room for one.
  const key = `${'ownerId' in owner ? owner.ownerId : owner.roleId}/${grid}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`views/${key}`}))`);
  const [row] = await tx
    .select({ n: count() })
    .from(views)
    .where(
      and(
        eq(views.grid, grid),
        'ownerId' in owner ? eq(views.ownerId, owner.ownerId) : eq(views.roleId, owner.roleId),
      ),
    );
  if ((row?.n ?? 0) >= VIEWS_PER_GRID_MAX)
    throw conflict('CONFLICT', messages.server.tooManyViews(VIEWS_PER_GRID_MAX));
}

/** One view as the caller reads it. */
async function readView(db: Db | Tx, id: string, user: Identity): Promise<SavedView> {
  const [row] = await db
    .select(columns)
    .from(views)
    .leftJoin(roles, eq(roles.id, views.roleId))
    .where(eq(views.id, id));
  if (!row) throw notFound('View');
  return toWire(row, user._id);
}

/**
 * Saves a view of a list for the user.
 * @throws 409 NAME_TAKEN when they have a view of that name on the list; 409 CONFLICT past
 * {@link VIEWS_PER_GRID_MAX} views.
 */
export async function createView(
  db: Db,
  { grid, name, query }: CreateViewInput,
  user: Identity,
): Promise<SavedView> {
  return db.transaction(async (tx) => {
    await checkRoom(tx, grid, { ownerId: user._id });
    const [created] = await tx
      .insert(views)
      .values({ ownerId: user._id, grid, name, query })
      .returning({ id: views.id });
    return readView(tx, created!.id, user);
  });
}

/**
 * Renames or changes one of the user's own views.
 * @throws 404 for a view that is not theirs (another's, or a role's); 409 NAME_TAKEN.
 */
export async function updateView(
  db: Db,
  id: string,
  change: UpdateViewInput,
  user: Identity,
): Promise<SavedView> {
  const [updated] = await db
    .update(views)
    .set({ ...change, updatedAt: sql`now()` })
    .where(and(eq(views.id, id), eq(views.ownerId, user._id)))
    .returning({ id: views.id });
  if (!updated) throw notFound('View');
  return readView(db, id, user);
}

/** Deletes one of the user's own views. @throws 404 for a view that is not theirs. */
export async function deleteView(db: Db, id: string, user: Identity): Promise<void> {
  const deleted = await db
    .delete(views)
    .where(and(eq(views.id, id), eq(views.ownerId, user._id)))
    .returning({ id: views.id });
  if (deleted.length === 0) throw notFound('View');
}

/**
 * Saves a view of a list for everyone in a role, and audits it.
 * @throws 400 for an unknown role; 409 NAME_TAKEN when the role has a view of that name on
 * the list; 409 CONFLICT past {@link VIEWS_PER_GRID_MAX} views.
 */
export async function createRoleView(
  db: Db,
  { roleId, grid, name, query }: CreateRoleViewInput,
  user: Identity,
  actor: Actor,
): Promise<SavedView> {
  return db.transaction(async (tx) => {
    const [role] = await tx.select().from(roles).where(eq(roles.id, roleId)).for('share');
    if (!role)
      throw badRequest(messages.server.invalidRequest, [
        { field: 'roleId', message: 'is not a role' },
      ]);
    await checkRoom(tx, grid, { roleId });
    const [created] = await tx
      .insert(views)
      .values({ roleId, grid, name, query })
      .returning({ id: views.id });
    await recordAudit(tx, actor, {
      action: 'view.create',
      resourceId: created!.id,
      summary: `Saved the view ${name} of ${grid} for the role ${role.name}`,
    });
    return readView(tx, created!.id, user);
  });
}

/**
 * Renames or changes a role's view, and audits it.
 * @throws 404 for an unknown id or a user's own view; 409 NAME_TAKEN.
 */
export async function updateRoleView(
  db: Db,
  id: string,
  change: UpdateViewInput,
  user: Identity,
  actor: Actor,
): Promise<SavedView> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ name: views.name })
      .from(views)
      .where(and(eq(views.id, id), isNotNull(views.roleId)))
      .for('update');
    if (!before) throw notFound('View');
    await tx
      .update(views)
      .set({ ...change, updatedAt: sql`now()` })
      .where(eq(views.id, id));
    const view = await readView(tx, id, user);
    await recordAudit(tx, actor, {
      action: 'view.update',
      resourceId: id,
      summary: `Changed the view ${before.name}${change.name && change.name !== before.name ? ` (now ${change.name})` : ''} of ${view.grid} for the role ${view.role?.name ?? ''}`,
    });
    return view;
  });
}

/** Deletes a role's view, and audits it. @throws 404 for an unknown id or a user's own view. */
export async function deleteRoleView(db: Db, id: string, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(views)
      .where(and(eq(views.id, id), isNotNull(views.roleId)))
      .returning({ name: views.name, grid: views.grid, roleId: views.roleId });
    if (!deleted) throw notFound('View');
    const [role] = await tx
      .select({ name: roles.name })
      .from(roles)
      .where(eq(roles.id, deleted.roleId!));
    await recordAudit(tx, actor, {
      action: 'view.delete',
      resourceId: id,
      summary: `Deleted the view ${deleted.name} of ${deleted.grid} for the role ${role?.name ?? ''}`,
    });
  });
}

/** Whose views: a user's own, or a role's. */
type ViewHolder = { ownerId: string } | { roleId: string };

/** A view as a delete keeps it, to give it back (a user's or a role's delete takes its views). */
export interface KeptView {
  id: string;
  grid: string;
  name: string;
  query: string;
}

const holderIs = (holder: ViewHolder) =>
  'ownerId' in holder ? eq(views.ownerId, holder.ownerId) : eq(views.roleId, holder.roleId);

/** The views of a user or a role, as their delete keeps them. */
export const viewsOf = (tx: Tx, holder: ViewHolder): Promise<KeptView[]> =>
  tx
    .select({ id: views.id, grid: views.grid, name: views.name, query: views.query })
    .from(views)
    .where(holderIs(holder));

/** Gives a user or a role back the views their delete took. */
export async function restoreViews(tx: Tx, holder: ViewHolder, kept: KeptView[] = []) {
  if (kept.length > 0) await tx.insert(views).values(kept.map((view) => ({ ...view, ...holder })));
}
