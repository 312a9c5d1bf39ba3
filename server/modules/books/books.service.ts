import { and, desc, eq, sql } from 'drizzle-orm';
import type { Book } from '@common/schemas/books';
import type {
  DeletedItem,
  Version,
  VersionAction,
  VersionListQuery,
} from '@common/schemas/versions';
import { type Db, type Tx, perDatabase, sessionOf } from '../../db/client';
import { books } from '../../db/schema/books';
import type { Actor } from '../../lib/audit';
import { recordChanges } from '../../lib/changes';
import { checkVersion } from '../../lib/concurrency';
import { notFound } from '../../lib/errors';
import type { ExportColumn } from '../../lib/exports';
import { batchStatement, everyWordIn, inBatches, runOn } from '../../lib/keyset';
import { lastKnownVersion, listDeleted, listVersions, versionToRestore } from '../../lib/versions';

type BookRow = typeof books.$inferSelect;
interface BookInput {
  title: string;
  author?: string | null;
  isbn?: string | null;
}

const toWire = (row: BookRow): Book => ({
  _id: row.id,
  title: row.title,
  author: row.author,
  isbn: row.isbn,
  _version: row.version,
});

/** A book's change, in its history and in the audit log (within the change's transaction). */
const recordBookChange = (tx: Tx, book: Book, action: VersionAction, actor: Actor) =>
  recordChanges(tx, actor, 'books', action, [
    { id: book._id, document: book, named: `the book "${book.title}"` },
  ]);

/** A page of books, newest first, ties broken by id (a stable order for paging). */
export async function listBooks(
  db: Db,
  { page, perPage, q }: { page: number; perPage: number; q?: string },
): Promise<Book[]> {
  const words = (q ?? '').split(/\s+/).filter(Boolean);
  const rows = words.length
    ? await db
        .select()
        .from(books)
        .where(and(...words.map((word) => sql`strpos(lower(${SHOWN_TEXT}), lower(${word})) > 0`)))
        .orderBy(desc(books.createdAt), desc(books.id))
        .limit(perPage)
        .offset((page - 1) * perPage)
    : await booksPageQuery(db).execute({ limit: perPage, offset: (page - 1) * perPage });
  return rows.map(toWire);
}

/** A book's shown text fields, one space apart: what the quick search looks in. */
const SHOWN_TEXT = sql`${books.title} || ' ' || coalesce(${books.author}, '') || ' ' || coalesce(${books.isbn}, '')`;

interface BookExportRow {
  id: string;
  title: string;
  author: string | null;
  isbn: string | null;
  cursor: (string | null)[];
}

/** What a book export can write: the book card's fields. */
const BOOK_COLUMNS: ExportColumn<BookExportRow>[] = [
  { name: '_id', label: 'ID', value: (book) => book.id },
  { name: 'title', label: 'Title', value: (book) => book.title },
  { name: 'author', label: 'Author', value: (book) => book.author },
  { name: 'isbn', label: 'ISBN', value: (book) => book.isbn },
];

/** The books an export writes: those of the quick search, newest first, in keyset batches. */
export function exportBooks(db: Db, { q }: { q?: string }) {
  const batches = inBatches(runOn<BookExportRow>(sessionOf(db)), (last, limit) =>
    batchStatement({
      source: 'select id::text as id, title, author, isbn, created_at, id as key from books',
      where: (parameter) =>
        everyWordIn(
          `r.title || ' ' || coalesce(r.author, '') || ' ' || coalesce(r.isbn, '')`,
          q,
          parameter,
        ),
      keys: [
        { sql: 'r.created_at', type: 'timestamptz', descending: true, nullable: false },
        { sql: 'r.key', type: 'uuid', descending: true, nullable: false },
      ],
      last,
      limit,
    }),
  );
  return { name: 'books', columns: BOOK_COLUMNS, batches };
}

const booksPageQuery = perDatabase((db) =>
  db
    .select()
    .from(books)
    .orderBy(desc(books.createdAt), desc(books.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('books_page'),
);

/** One book, with its version (sent as its ETag). @throws 404. */
export async function getBook(db: Db, id: string): Promise<Book> {
  const [row] = await db.select().from(books).where(eq(books.id, id));
  if (!row) throw notFound('Book');
  return toWire(row);
}

/** Adds a book and its first version, in one transaction. */
export async function createBook(db: Db, input: BookInput, actor: Actor): Promise<Book> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(books)
      .values({ title: input.title, author: input.author ?? null, isbn: input.isbn ?? null })
      .returning();
    const book = toWire(row!);
    await recordBookChange(tx, book, 'create', actor);
    return book;
  });
}

/**
 * Replaces a book's fields and records the new version, in one transaction.
 * @throws 404; 409 VERSION_CONFLICT when `base` names another version than the current one.
 */
export async function updateBook(
  db: Db,
  id: string,
  input: BookInput,
  actor: Actor,
  base: readonly number[] = [],
): Promise<Book> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(books).where(eq(books.id, id)).for('update');
    if (!current) throw notFound('Book');
    await checkVersion(current, base, () => toWire(current));
    const [row] = await tx
      .update(books)
      .set({
        title: input.title,
        author: input.author ?? null,
        isbn: input.isbn ?? null,
        version: sql`${books.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(books.id, id))
      .returning();
    const book = toWire(row!);
    await recordBookChange(tx, book, 'update', actor);
    return book;
  });
}

/** Deletes a book and records it in its history (which stays, for the record). @throws 404. */
export async function deleteBook(db: Db, id: string, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const [deleted] = await tx.delete(books).where(eq(books.id, id)).returning();
    if (!deleted) throw notFound('Book');
    await recordBookChange(tx, toWire(deleted), 'delete', actor);
  });
}

/**
 * Makes version `versionId` of a book its current state again (a deleted book comes back
 * with its id, counting its versions on from the last it had) and records a `restore`
 * version, in one transaction.
 * @throws 404 when the book has no such version; 409 VERSION_CONFLICT when `base` names
 * another version than the current one.
 */
export async function restoreBook(
  db: Db,
  id: string,
  versionId: string,
  actor: Actor,
  base: readonly number[] = [],
): Promise<Book> {
  return db.transaction(async (tx) => {
    const snapshot = (await versionToRestore(tx, 'books', id, versionId)) as Book;
    const [current] = await tx.select().from(books).where(eq(books.id, id)).for('update');
    if (current) await checkVersion(current, base, () => toWire(current));
    const values = {
      title: snapshot.title,
      author: snapshot.author ?? null,
      isbn: snapshot.isbn ?? null,
      version: (current?.version ?? (await lastKnownVersion(tx, 'books', id))) + 1,
    };
    const [row] = await tx
      .insert(books)
      .values({ id, ...values })
      .onConflictDoUpdate({ target: books.id, set: { ...values, updatedAt: new Date() } })
      .returning();
    const book = toWire(row!);
    await recordBookChange(tx, book, 'restore', actor);
    return book;
  });
}

/**
 * A book's versions, newest first (a page of them, or all), even once it is deleted.
 * @throws 404 when it never existed.
 */
export async function listBookVersions(
  db: Db,
  id: string,
  query?: VersionListQuery,
): Promise<Version[]> {
  const history = await listVersions(db, 'books', id, query);
  if (history.length === 0 && (query?.page ?? 1) === 1) throw notFound('Book');
  return history;
}

/** The books deleted and not restored since, most recently deleted first. */
export const listDeletedBooks = (db: Db): Promise<DeletedItem[]> => listDeleted(db, 'books');
