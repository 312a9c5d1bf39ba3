import { messages } from '@common/messages';
import type { EntityField } from '@common/schemas/entities';
import { isEmptyValue, parseRecordValues } from '@common/schemas/fieldValues';
import type { ImportProblem, ImportQuery, ImportReport } from '@common/schemas/imports';
import { type Db, type Session, sessionOf } from '../../db/client';
import { type Actor, recordAudit } from '../../lib/audit';
import { changeAndRecord, changeSummary } from '../../lib/changes';
import { AppError } from '../../lib/errors';
import {
  type CsvRow,
  ID_COLUMN,
  type ImportProgress,
  type Refuse,
  mapColumns,
  runImport,
} from '../../lib/imports';
import { looksLikeUuid } from '../../lib/uuid';
import {
  SQL_TYPES,
  type RecordsDefinition,
  columnOf,
  documentOf,
  quoted,
  tableOf,
  typeOf,
  TEXT_TYPES,
} from './recordTable';
import {
  aRecordOf,
  asTypeOf,
  definitionOf,
  recordsQuery,
  refusalOf,
  relatedOf,
  returningItem,
  statementName,
} from './records.service';
import type { RelatedEntity } from './recordsPage';
import {
  type RecordAccess,
  type WriteScope,
  fieldsDenied,
  keepRestricted,
  policyDenied,
  scopeCondition,
  writeScope,
} from './recordPolicies';

/** What the importer's policies let them add, and change (`writeScope` of each). */
interface ImportScopes {
  create: WriteScope;
  update: WriteScope;
}

/** A batch's rows written, one of which lies outside the writer's policy (`policyDenied`). */
class OutsidePolicy extends Error {}

/** A row ready to write: its line, its id (if the file gives one), its checked values. */
interface CheckedRow {
  line: number;
  id: string | null;
  /** Its id is a record's already: the row changes it. */
  updating: boolean;
  values: Record<string, unknown>;
}

/**
 * A field's value as an import's rows name it: `v<index of the field>`, so that in an
 * update the table's own column names stay unambiguous (its RETURNING names them bare),
 * whatever their length (PostgreSQL would cut a longer derived name short).
 */
const incoming = (definition: RecordsDefinition, field: EntityField) =>
  `v${definition.fields.indexOf(field)}`;

/** Splits `items` into those `test` holds for and the others. */
function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}

/**
 * What a write's refusal by the database says of a row (a unique value taken, an id of
 * another record, a related record gone), or undefined for a fault.
 */
function refused(error: unknown, definition: RecordsDefinition) {
  if (error instanceof OutsidePolicy) return { field: ID_COLUMN, message: error.message };
  try {
    refusalOf(error, definition);
  } catch (told) {
    if (told instanceof AppError) {
      const [first] = told.fields ?? [];
      return {
        field: first?.field.replace(/^body\.fields\./, '') ?? ID_COLUMN,
        message: first?.message ?? told.message,
      };
    }
  }
  return undefined;
}

/** The ids of related records by their display value, looked up as rows need them. */
class RelationLookup {
  private readonly known = new Map<string, Map<string, string[]>>();
  constructor(
    private readonly session: Session,
    private readonly related: Map<string, RelatedEntity>,
  ) {}

  /** Looks up the display values not seen yet, of one relation's target, at once. */
  async load(target: string, texts: Iterable<string>) {
    let byText = this.known.get(target) ?? new Map<string, string[]>();
    // Bounded: a file naming millions of distinct records does not keep them all (it starts
    // over before a load, so that what the batch at hand needs is kept).
    if (byText.size > 100_000) byText = new Map();
    this.known.set(target, byText);
    const wanted = [...new Set(texts)].filter((text) => !byText.has(text));
    const entity = this.related.get(target);
    if (!wanted.length || !entity) return;
    const table = quoted(tableOf(entity.id));
    const column = `r.${quoted(columnOf(entity.displayField.name))}`;
    // A text display column is compared as it is (its index serves); others as text.
    const shown = TEXT_TYPES.includes(typeOf(entity.displayField)) ? column : `${column}::text`;
    const rows = await recordsQuery<{ id: string; shown: string }>(
      this.session,
      `select r.id::text as id, ${shown} as shown from ${table} r where ${shown} = any($1::text[])`,
      [wanted],
    );
    for (const text of wanted) byText.set(text, []);
    for (const row of rows) byText.get(row.shown)?.push(row.id);
    // Those no record shows exactly are compared whatever their capitals (as the database
    // folds them): only texts, and only these, as no index serves it.
    const missed = wanted.filter((text) => byText.get(text)!.length === 0);
    if (!missed.length || shown !== column) return;
    const loose = await recordsQuery<{ text: string; id: string }>(
      this.session,
      `select m.text, r.id::text as id
       from unnest($1::text[]) m(text) join ${table} r on lower(${shown}) = lower(m.text)`,
      [missed],
    );
    for (const row of loose) byText.get(row.text)?.push(row.id);
  }

  idsOf(target: string, text: string): string[] {
    return this.known.get(target)?.get(text) ?? [];
  }
}

/**
 * Imports records of `entityName` from a CSV file (lib/imports.ts runs it): each row's
 * cells parsed by their field's type (a relation's by the related record's display value),
 * checked by the API's own rules, then written in batches (a known `_id` changes its
 * record, the columns given only), each record with its version; one audit event for the
 * import, none per record. A row the database refuses (a unique value taken) is found and
 * named. The entity's definition is locked until the import ends.
 * @throws 404 for an unknown entity, and what runImport throws.
 */
export function importRecords(
  db: Db,
  entityName: string,
  file: string,
  options: ImportQuery,
  actor: Actor,
  progress: ImportProgress,
  access?: RecordAccess,
): Promise<ImportReport> {
  return runImport(db, file, options, progress, async (tx, headers) => {
    const session = sessionOf(tx);
    const definition = await definitionOf(session, entityName, { lock: true });
    const scopes: ImportScopes = {
      create: writeScope(definition.policies, access, 'create'),
      update: writeScope(definition.policies, access, 'update'),
    };
    const columns = mapColumns(definition.fields, headers, options.columns, entityName);
    // A column of a field hidden from the importer: the file would write what they may not
    // read (and its refusals would tell it). Refused whole, before anything is written.
    const hidden = definition.fields.filter(
      (field) => columns.includes(field.name) && scopes.create.hidden.has(field.name),
    );
    if (hidden.length) throw fieldsDenied(hidden, scopes.create.fieldRoles);
    const lookup = new RelationLookup(session, await relatedOf(session, definition));
    const writer = new BatchWriter(session, definition, columns, actor, scopes);
    return {
      columns,
      async batch(rows, refuse, write) {
        const checked = await checkRows(session, definition, columns, rows, lookup, refuse, scopes);
        return write ? writer.write(checked, refuse) : { created: 0, updated: 0 };
      },
      audit: (report) =>
        recordAudit(tx, actor, {
          action: 'record.import',
          resourceId: definition.id,
          summary: `Imported records of ${entityName}: ${report.created} added, ${report.updated} changed, ${report.refused} rows refused`,
        }),
    };
  });
}

/**
 * A batch's rows as values to write: each cell parsed by its field's type, relations
 * looked up by display value, then the API's own checks (a new record's in full; a known
 * id's on the columns given) and the importer's policies (a record they may not read is not
 * theirs to change, nor its id theirs to take; one they may not update, or a field they may
 * not set, refuses its row). Refused rows are told to `refuse` and left out.
 */
async function checkRows(
  session: Session,
  definition: RecordsDefinition,
  columns: string[],
  rows: CsvRow[],
  lookup: RelationLookup,
  refuse: Refuse,
  scopes: ImportScopes,
): Promise<CheckedRow[]> {
  const fieldOf = new Map(definition.fields.map((field) => [field.name, field]));
  const mapped = columns.flatMap((name, index) => {
    const field = fieldOf.get(name);
    return field ? [{ field, index }] : [];
  });
  const idIndex = columns.indexOf(ID_COLUMN);
  for (const { field, index } of mapped) {
    if (field.target)
      await lookup.load(
        field.target,
        rows.map((row) => row.cells[index]?.trim() ?? '').filter(Boolean),
      );
  }
  const ids = rows.flatMap((row) => {
    const id = row.cells[idIndex]?.trim();
    return idIndex >= 0 && id && looksLikeUuid(id) ? [id] : [];
  });
  const found = await existingRecords(session, definition, ids, scopes.update);
  // A record the importer may not read is, to them, not there, and its id not theirs.
  const existing = new Map([...found].filter(([, record]) => record.readable));
  const narrowedReader = Boolean(scopes.update.readWhere);
  // Record ids are one space across entities: an id another entity's record has is taken;
  // to a reader the policies narrow, so is one deleted here (its history would come along).
  const elsewhere = new Set([
    ...[...found.keys()].filter((id) => !existing.has(id)),
    ...(ids.length === found.size
      ? []
      : (
          await recordsQuery<{ id: string; action: string; entity_name: string }>(
            session,
            `select distinct on (document_id) document_id::text as id, action,
                    document->>'entity_name' as entity_name
             from versions where resource = 'entity-records' and document_id = any($1::uuid[])
             order by document_id, version_date desc nulls last, id desc nulls last`,
            [ids],
          )
        )
          .filter(
            (row) =>
              (narrowedReader && row.entity_name === definition.name) ||
              (row.action !== 'delete' && row.entity_name !== definition.name),
          )
          .map((row) => row.id)),
  ]);

  const checked: CheckedRow[] = [];
  // A batch writes a record once: a row repeating the id of an earlier row of its batch is
  // refused (one statement cannot change a record twice).
  const idLines = new Map<string, number>();
  for (const { line, cells } of rows) {
    const problems: ImportProblem[] = [];
    const id = idIndex >= 0 ? cells[idIndex]?.trim().toLowerCase() || null : null;
    if (id && !looksLikeUuid(id))
      problems.push({ line, field: ID_COLUMN, message: 'must be a record id (a UUID)' });
    if (id && idLines.has(id))
      problems.push({
        line,
        field: ID_COLUMN,
        message: `is the id of line ${idLines.get(id)} too`,
      });
    else if (id) idLines.set(id, line);
    const input: Record<string, unknown> = {};
    for (const { field, index } of mapped) {
      const cell = cells[index] ?? '';
      input[field.name] = field.target
        ? relationValue(field, cell.trim(), lookup, (message) =>
            problems.push({ line, field: field.name, message }),
          )
        : cellValue(field, cell);
    }
    const record = id === null ? undefined : existing.get(id);
    const updating = record !== undefined;
    if (id && !updating && elsewhere.has(id))
      problems.push({ line, field: ID_COLUMN, message: messages.server.recordIdTaken });
    if (record && !record.writable)
      problems.push({
        line,
        field: ID_COLUMN,
        message: policyDenied('update', scopes.update.roles).message,
      });
    const scope = updating ? scopes.update : scopes.create;
    // A new record's blank asks for the default: for a field the importer may not set, that
    // is no value given.
    if (!updating)
      for (const name of scope.restricted) if (isEmptyValue(input[name])) delete input[name];
    const fields = updating ? mapped.map(({ field }) => field) : definition.fields;
    const result = parseRecordValues(fields, input, { creating: !updating });
    if ('problems' in result)
      for (const { field, message } of result.problems)
        problems.push({ line, field, message: inFileWords(fieldOf.get(field), message) });
    let values: Record<string, unknown> = 'values' in result ? result.values : {};
    try {
      const current = record?.document?.fields ?? defaultsOf(definition);
      if (!problems.length) values = keepRestricted(definition.fields, values, current, scope);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      for (const { field, message } of error.fields ?? [])
        problems.push({ line, field: field.replace(/^body\.fields\./, ''), message });
    }
    if (problems.length) problems.forEach(refuse);
    else checked.push({ line, id, updating, values });
  }
  return checked;
}

/**
 * The records of `ids` there are, locked, each with whether the importer may read it and
 * change it (and, where a field is theirs only to read, its values).
 */
async function existingRecords(
  session: Session,
  definition: RecordsDefinition,
  ids: string[],
  scope: WriteScope,
) {
  const found = new Map<
    string,
    { readable: boolean; writable: boolean; document?: { fields: Record<string, unknown> } }
  >();
  if (ids.length === 0) return found;
  const readable = scopeCondition(definition.fields, scope.readWhere, scope, 1);
  const writable = scopeCondition(
    definition.fields,
    scope.where,
    scope,
    1 + (readable?.values.length ?? 0),
  );
  const rows = await recordsQuery<{
    id: string;
    readable: boolean;
    writable: boolean;
    document?: { fields: Record<string, unknown> };
  }>(
    session,
    `select id::text as id, ${readable?.sql ?? 'true'} as readable,
            ${writable?.sql ?? 'true'} as writable
            ${scope.restricted.size ? `, ${documentOf(definition)} as document` : ''}
     from ${quoted(tableOf(definition.id))} where id = any($1::uuid[]) for update`,
    [ids, ...(readable?.values ?? []), ...(writable?.values ?? [])],
  );
  for (const { id, ...record } of rows) found.set(id, record);
  return found;
}

/** A new record's values when nothing is given: each field's default. */
const defaultsOf = (definition: RecordsDefinition) =>
  Object.fromEntries(definition.fields.map((field) => [field.name, field.default ?? null]));

/** What a refused value must be, as a file writes it: a yes/no is a word (see cellValue). */
const inFileWords = (field: EntityField | undefined, message: string) =>
  field && typeOf(field) === 'boolean' ? 'must be yes or no (or true, false, 1, 0)' : message;

/** A cell as its field's value: empty is none; a number or yes/no read from its text. */
function cellValue(field: EntityField, cell: string): unknown {
  if (isEmptyValue(cell.trim())) return null;
  return TEXT_TYPES.includes(typeOf(field)) ? cell : asTypeOf(field, cell.trim());
}

/** A relation's cell (the related record's display value) as its id, if one record has it. */
function relationValue(
  field: EntityField,
  text: string,
  lookup: RelationLookup,
  problem: (message: string) => void,
): string | null {
  if (text === '') return null;
  const ids = lookup.idsOf(field.target!, text);
  if (ids.length === 1) return ids[0]!;
  problem(
    ids.length === 0
      ? `no record of ${field.target} is shown as "${text}"`
      : `${ids.length} records of ${field.target} are shown as "${text}"`,
  );
  return null;
}

/**
 * Writes checked rows in one statement each for the new records and the changed ones,
 * each record with its version (no audit line or live event each: the import has its own).
 * A batch the database refuses is undone (a savepoint) and written row by row, to name the
 * rows at fault and write the others.
 */
class BatchWriter {
  private readonly insertText: string;
  private readonly updateText: string;
  constructor(
    private readonly session: Session,
    private readonly definition: RecordsDefinition,
    columns: string[],
    private readonly actor: Actor,
    private readonly scopes: ImportScopes,
  ) {
    const { fields } = definition;
    // The rows come as JSON (see `incoming` for their keys).
    const recordset = (chosen: EntityField[]) =>
      `jsonb_to_recordset($1::jsonb) as r(in_id uuid, in_line int${chosen
        .map((field) => `, ${incoming(definition, field)} ${SQL_TYPES[typeOf(field)]}`)
        .join('')})`;
    const table = quoted(tableOf(definition.id));
    // Each row its own creation time, a microsecond a line, so that the list (oldest first)
    // shows them in the file's order.
    this.insertText = `insert into ${table} (id, created_at, created_by, ${fields.map((f) => quoted(columnOf(f.name))).join(', ')})
      select coalesce(r.in_id, gen_random_uuid()), now() + r.in_line * interval '1 microsecond', $3::uuid, ${fields.map((f) => `r.${incoming(definition, f)}`).join(', ')}
      from ${recordset(fields)} ${returningItem(definition, '$2')}`;
    const given = fields.filter((field) => columns.includes(field.name));
    const assignments = given.map(
      (f) => `${quoted(columnOf(f.name))} = r.${incoming(definition, f)}`,
    );
    this.updateText = `update ${table}
      set ${[...assignments, 'version = version + 1', 'updated_at = now()'].join(', ')}
      from ${recordset(given)} where id = r.in_id ${returningItem(definition, '$2')}`;
  }

  /** Writes `rows`; those the database refuses are told to `refuse`. */
  async write(rows: CheckedRow[], refuse: Refuse) {
    const written = { created: 0, updated: 0 };
    if (rows.length === 0) return written;
    try {
      await this.inSavepoint(() => this.writeAll(rows, written));
      return written;
    } catch (error) {
      if (!refused(error, this.definition)) throw error;
    }
    written.created = written.updated = 0;
    for (const row of rows) {
      try {
        await this.inSavepoint(() => this.writeAll([row], written));
      } catch (error) {
        const reason = refused(error, this.definition);
        if (!reason) throw error;
        refuse({ line: row.line, ...reason });
      }
    }
    return written;
  }

  private async writeAll(rows: CheckedRow[], written: { created: number; updated: number }) {
    const [changing, adding] = partition(rows, (row) => row.updating);
    if (adding.length) {
      await this.outsidePolicy(await this.run(this.insertText, adding, 'create'), 'create');
      written.created += adding.length;
    }
    if (changing.length) {
      await this.outsidePolicy(await this.run(this.updateText, changing, 'update'), 'update');
      written.updated += changing.length;
    }
  }

  /**
   * @throws OutsidePolicy when a record of `ids`, as the write left it, is outside the
   * importer's `action` condition (the batch is then written again row by row, each such
   * row refused).
   */
  private async outsidePolicy(ids: string[], action: 'create' | 'update') {
    const scope = this.scopes[action];
    const allowed = scopeCondition(this.definition.fields, scope.where, scope, 1);
    if (!allowed) return;
    const [outside] = await recordsQuery<{ id: string }>(
      this.session,
      `select id::text as id from ${quoted(tableOf(this.definition.id))}
       where id = any($1::uuid[]) and not coalesce(${allowed.sql}, false) limit 1`,
      [ids, ...allowed.values],
    );
    if (outside)
      throw new OutsidePolicy(policyDenied(action, scope.roles, { result: true }).message);
  }

  private run(text: string, rows: CheckedRow[], action: 'create' | 'update') {
    const recordset = rows.map((row) => ({
      in_id: row.id,
      in_line: row.line,
      ...Object.fromEntries(
        this.definition.fields.flatMap((field) =>
          Object.hasOwn(row.values, field.name)
            ? [[incoming(this.definition, field), row.values[field.name]]]
            : [],
        ),
      ),
    }));
    return changeAndRecord(
      this.session,
      statementName(`import ${action} ${text}`),
      {
        text,
        values: [
          JSON.stringify(recordset),
          changeSummary(action, aRecordOf(this.definition.name)),
          // Who adds the records (the update statement has no use for it).
          ...(action === 'create' ? [this.actor.id] : []),
        ],
      },
      this.actor,
      'entity-records',
      action,
      { audited: false },
    );
  }

  private async inSavepoint(write: () => Promise<void>) {
    // A plain statement: both engines' clients take one as text alone.
    const run = (text: string) =>
      (this.session as { query(text: string): Promise<unknown> }).query(text);
    await run('savepoint import_batch');
    try {
      await write();
      await run('release savepoint import_batch');
    } catch (error) {
      await run('rollback to savepoint import_batch');
      throw error;
    }
  }
}
