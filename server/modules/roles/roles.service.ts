import { asc } from 'drizzle-orm';
import type { Role } from '@common/schemas/roles';
import type { Db } from '../../db/client';
import { roles } from '../../db/schema/roles';

/** Every role, by name. */
export async function listRoles(db: Db): Promise<Role[]> {
  const rows = await db.select().from(roles).orderBy(asc(roles.name));
  return rows.map((row) => ({ _id: row.id, name: row.name }));
}
