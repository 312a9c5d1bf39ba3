import { eq } from 'drizzle-orm';
import { USER_IMPORT_FIELDS, createUserSchema, updateUserSchema } from '@common/schemas/users';
import type { ImportProblem, ImportQuery, ImportReport } from '@common/schemas/imports';
import type { Db } from '../../db/client';
import { roles } from '../../db/schema/roles';
import { userRoles, users } from '../../db/schema/users';
import { type Actor, recordAudit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { ID_COLUMN, type ImportProgress, mapColumns, runImport } from '../../lib/imports';
import { conflictOf } from '../../lib/pgErrors';
import { looksLikeUuid } from '../../lib/uuid';
import { createUser, updateUser } from './users.service';

/** The field a refusal of a user's write names, by its code. */
const FIELD_OF_CODE: Record<string, string> = {
  USERNAME_TAKEN: 'username',
  EMAIL_TAKEN: 'email',
  ADMIN_PROTECTED: 'username',
};

/**
 * Imports users from a CSV file (lib/imports.ts runs it), a row at a time through the
 * users' own create and update (their checks, audit lines and live events): a row without
 * `_id` adds a user (a password is required; roles by name, separated by commas, as the
 * export writes them); a row with the `_id` of a user changes their username and email.
 * An existing user's password and roles are not changed by a file (an administrator sets
 * a password; roles are assigned on the roles screens): their roles as they are (an
 * export read back) are taken as no change. One more audit event for the
 * import.
 */
export function importUsers(
  db: Db,
  file: string,
  options: ImportQuery,
  actor: Actor,
  progress: ImportProgress,
): Promise<ImportReport> {
  return runImport(db, file, options, progress, async (tx, headers) => {
    const columns = mapColumns(USER_IMPORT_FIELDS, headers, options.columns, 'users');
    const roleIds = new Map(
      (await tx.select({ id: roles.id, name: roles.name }).from(roles)).map((role) => [
        role.name.toLowerCase(),
        role.id,
      ]),
    );
    return {
      columns,
      async batch(rows, refuse, write) {
        const written = { created: 0, updated: 0 };
        for (const { line, cells } of rows) {
          const cell = (name: string) => {
            const index = columns.indexOf(name);
            return index === -1 ? undefined : (cells[index] ?? '').trim();
          };
          const problems: ImportProblem[] = [];
          const problem = (field: string, message: string) =>
            problems.push({ line, field, message });
          const id = cell(ID_COLUMN) || undefined;
          const roleNames = (cell('roles') ?? '')
            .split(',')
            .map((n) => n.trim())
            .filter(Boolean);
          const unknown = roleNames.filter((name) => !roleIds.has(name.toLowerCase()));
          if (unknown.length) problem('roles', `are not roles: ${unknown.join(', ')}`);

          let save: (() => Promise<unknown>) | undefined;
          if (id) {
            const [current] = looksLikeUuid(id)
              ? await tx.select().from(users).where(eq(users.id, id))
              : [];
            if (!current) problem(ID_COLUMN, 'is not the id of a user');
            if (cell('password')) problem('password', 'is only set for new users');
            // The roles as they are (an export read back) are no change; others are refused.
            const held = current
              ? (
                  await tx
                    .select({ name: roles.name })
                    .from(userRoles)
                    .innerJoin(roles, eq(roles.id, userRoles.roleId))
                    .where(eq(userRoles.userId, current.id))
                ).map((role) => role.name.toLowerCase())
              : [];
            const asked = roleNames.map((name) => name.toLowerCase());
            const same = asked.length === held.length && asked.every((name) => held.includes(name));
            if (cell('roles') !== undefined && !same)
              problem('roles', 'of an existing user are set on the roles screens');
            const parsed = updateUserSchema.safeParse({
              username: cell('username') ?? current?.username,
              email: cell('email') === undefined ? current?.email : cell('email') || null,
            });
            if (!parsed.success)
              for (const issue of parsed.error.issues)
                problem(String(issue.path[0]), issue.message);
            else if (current) save = () => updateUser(tx as Db, id, parsed.data, actor);
          } else {
            const parsed = createUserSchema.safeParse({
              username: cell('username') ?? '',
              email: cell('email') || undefined,
              password: cell('password') ?? '',
              roles: roleNames.flatMap((name) => roleIds.get(name.toLowerCase()) ?? []),
            });
            if (!parsed.success)
              for (const issue of parsed.error.issues)
                problem(String(issue.path[0]), issue.message);
            else save = () => createUser(tx as Db, parsed.data, actor);
          }
          problems.forEach(refuse);
          if (problems.length || !write || !save) continue;
          try {
            // Each user's write is a savepoint of the import (`transaction` within one).
            await save();
            if (id) written.updated++;
            else written.created++;
          } catch (error) {
            const told = error instanceof AppError ? error : conflictOf(error);
            if (!told) throw error;
            refuse({ line, field: FIELD_OF_CODE[told.code] ?? ID_COLUMN, message: told.message });
          }
        }
        return written;
      },
      audit: (report) =>
        recordAudit(tx, actor, {
          action: 'user.import',
          summary: `Imported users: ${report.created} added, ${report.updated} changed, ${report.refused} rows refused`,
        }),
    };
  });
}
