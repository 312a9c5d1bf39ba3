import {
  type GridApi,
  type GridCellParams,
  type GridRowModesModel,
  GridRowModes,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import {
  type KeyboardEvent,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { ChangeResource } from '@common/schemas/events';
import { conflictCurrent, errorCode, fieldErrors, reportError } from '@/api/errors';
import { withoutKey } from '@/lib/editing';
import { cancelRow, saveRow, startEditing } from '@/lib/rowModes';
import { type EditValues, useVersionedEdit, type Versioned } from './useVersionedEdit';

export interface VersionedRowEditOptions<
  Row extends Versioned & GridValidRowModel,
  Values extends EditValues,
> {
  resource: ChangeResource;
  /** For a record: its entity (presence names it). */
  entityName?: string;
  /** The saved rows, as the cache holds them. */
  rows: Row[];
  /**
   * The rows are one page of a list: a row missing from them may be on another page, so
   * only a deletion heard of or a save that finds the item gone says it is gone.
   */
  paged?: boolean;
  /**
   * A row's problems by field, checked before it is sent (none: undefined); a refused save
   * keeps the row in edit mode with each message under its cell (`messageOf`).
   */
  validate?(row: Row): Record<string, string> | undefined;
  /** The field of the values a 400's field path names (`fields.x` → `x`), if any. */
  fieldOfError?(path: string): string | undefined;
  /** What an edit of a row changes and sends. */
  valuesOf(row: Row): Values;
  /** The row of an item in the server's form (a conflict's `current`); by default the same. */
  fromServer?(current: unknown): Row;
  /** Saves `values` as row `id` over version `version`; resolves to the stored row. */
  send(id: string, values: Values, version: number): Promise<Row>;
  /** Saves a new row (one `addRow` made); resolves to the stored row. */
  create?(row: Row): Promise<Row>;
  /** A new blank row, for `addRow`. */
  blankRow?(): Row;
  /** Brings back row `id` as it was deleted; absent where the user may not. */
  restore?(id: string): Promise<Row>;
  /** The column the keyboard goes to when an edit starts. */
  fieldToFocus?: string;
  /** The grid's column of a field of the values; by default the field's own name. */
  columnOf?(field: string): string;
  /**
   * A value of the values as its column's editor holds it (a date as a Date…), given the row
   * being edited; by default the value itself.
   */
  editValueOf?(field: string, value: unknown, row: Row): unknown;
  apiRef: RefObject<GridApi | null>;
  /** The shared handler's context for a failed save. */
  errorContext: string;
  /** Called with each saved edit (to say so). */
  onSaved?(row: Row): void;
  /** Called with a failed save's error, other than a conflict or a deletion (to explain it). */
  onFailed?(failure: unknown): void;
}

/**
 * A grid edited row by row (`editMode="row"`), on the one edit machine (`useVersionedEdit`):
 * one row is the editing one (spec section 4: starting to edit another row saves the current
 * one), its save names the version its edit started from, and a conflict, a change or a
 * deletion by someone else meanwhile is told and resolved the same way as in a form. A row
 * deleted by someone else while being edited stays in the grid, as typed, until the person
 * chooses what to do with it. Spread `gridProps` on the DataGrid.
 */
export function useVersionedRowEdit<
  Row extends Versioned & GridValidRowModel,
  Values extends EditValues,
>(options: VersionedRowEditOptions<Row, Values>) {
  const { rows: saved, apiRef, fieldToFocus } = options;
  const [modes, setModes] = useState<GridRowModesModel>({});
  /** Rows added here and not saved yet. */
  const [drafts, setDrafts] = useState<Row[]>([]);
  /**
   * Each row being edited as it was when its edit started, and where: shown there should it
   * leave the cache.
   */
  const [startedFrom, setStartedFrom] = useState<Record<string, { row: Row; at: number }>>({});
  // Rows whose last save failed: the grid puts them back in edit mode, which starts nothing.
  const failedSaves = useRef(new Set<string>());
  /** Each row's refused fields and why, from its last save (numbered: each refusal is new). */
  const [messages, setMessages] = useState<
    Record<string, { attempt: number; fields: Record<string, string> }>
  >({});
  const attempts = useRef(0);
  const refuse = useCallback((id: string, fields: Record<string, string>) => {
    attempts.current += 1;
    const attempt = attempts.current;
    setMessages((known) => ({ ...known, [id]: { attempt, fields } }));
  }, []);
  const latest = useRef(options);
  useLayoutEffect(() => {
    latest.current = options;
  });

  const editingId = Object.keys(modes).find((id) => modes[id]?.mode === GridRowModes.Edit);
  const isDraft = useCallback((id: string) => drafts.some((row) => row._id === id), [drafts]);
  const savedRow = useCallback((id: string) => saved.find((row) => row._id === id), [saved]);

  const removeDraft = useCallback((id: string) => {
    setDrafts((current) => current.filter((row) => row._id !== id));
  }, []);
  const forget = useCallback((id: string) => {
    setStartedFrom((known) => withoutKey(known, id));
  }, []);

  /** The row's edit is over, dropping what was typed: the row shows the cache's row. */
  const leave = useCallback(
    (id: string) => {
      forget(id);
      setMessages((known) => withoutKey(known, id));
      setModes((current) => cancelRow(current, id));
    },
    [forget],
  );

  const typedRow = (id: string) =>
    (apiRef.current?.getRowWithUpdatedValues(id, '') as Row | undefined) ??
    savedRow(id) ??
    startedFrom[id]?.row;

  const edit = useVersionedEdit<Row, Values>({
    resource: options.resource,
    entityName: options.entityName,
    editingId: editingId !== undefined && !isDraft(editingId) ? editingId : undefined,
    itemOf: savedRow,
    valuesOf: options.valuesOf,
    fromServer: options.fromServer,
    typedValues: (id) => latest.current.valuesOf(typedRow(id)!),
    send: (id, values, version) => latest.current.send(id, values, version),
    restore: options.restore,
    // Theirs kept, or mine saved over theirs: the row shows the cache's, which holds it.
    onSettled: leave,
    onDiscarded: leave,
    // Edit further: the row's edit takes mine, rebased on theirs.
    show: (id, values) => {
      const { columnOf = (field: string) => field, editValueOf } = latest.current;
      const row = typedRow(id)!;
      for (const [field, value] of Object.entries(values)) {
        const shown = editValueOf ? editValueOf(field, value, row) : value;
        void apiRef.current?.setEditCellValue({ id, field: columnOf(field), value: shown });
      }
    },
    // After a choice the keyboard is on the row (or, gone, on the grid's first row).
    focus: (id) => {
      const api = apiRef.current;
      const target = api?.getRow(id) ? id : api?.getSortedRowIds()[0];
      const field = latest.current.fieldToFocus ?? api?.getVisibleColumns()[0]?.field;
      if (api && target !== undefined && field) api.setCellFocus(target, field);
    },
    errorContext: options.errorContext,
    onFailed: options.onFailed,
    isGone: (id) => !options.paged && !isDraft(id) && !savedRow(id),
  });
  const { begin, end } = edit;

  /** Starts the edit of `row`: its version and values are the base. */
  const beginRow = useCallback(
    (row: Row) => {
      begin(row);
      const at = saved.findIndex((candidate) => candidate._id === row._id);
      setStartedFrom((known) => (row._id in known ? known : { ...known, [row._id]: { row, at } }));
    },
    [begin, saved],
  );

  const startEdit = useCallback(
    (row: Row) => {
      if (!isDraft(row._id)) beginRow(row);
      setModes((current) => startEditing(current, row._id, fieldToFocus));
    },
    [beginRow, isDraft, fieldToFocus],
  );

  /** Leaves the row's edit keeping what was typed: the grid saves it. */
  const saveEdit = useCallback((id: string) => setModes((current) => saveRow(current, id)), []);

  /** Leaves the row's edit dropping what was typed (a new row goes altogether). */
  const cancelEdit = useCallback(
    (id: string) => {
      end(id);
      removeDraft(id);
      leave(id);
    },
    [end, removeDraft, leave],
  );

  // A row just added is the last: the grid scrolls to it (on a long page it is out of view,
  // and a virtualised grid has not even drawn it).
  const lastDraft = drafts.at(-1)?._id;
  useEffect(() => {
    const api = apiRef.current;
    if (lastDraft === undefined || !api?.getRow(lastDraft)) return;
    api.scrollToIndexes({ rowIndex: api.getRowIndexRelativeToVisibleRows(lastDraft) });
  }, [lastDraft, apiRef]);

  /** Appends a blank row in edit mode (spec section 4). */
  const addRow = useCallback(() => {
    const row = latest.current.blankRow?.();
    if (!row) return;
    setDrafts((current) => [...current, row]);
    setModes((current) => startEditing(current, row._id, fieldToFocus));
  }, [fieldToFocus]);

  // What the grid shows: the cache's rows, the new ones, and any being edited that someone
  // else deleted meanwhile (as typed, until the person chooses).
  const rows = useMemo(() => {
    const shown = new Set(saved.map((row) => row._id));
    const all = [...saved, ...drafts.filter((row) => !shown.has(row._id))];
    const kept = Object.values(startedFrom).sort((a, b) => a.at - b.at);
    for (const { row, at } of kept) {
      if (!shown.has(row._id) && row._id in edit.bases) all.splice(at, 0, row);
    }
    return all;
  }, [saved, drafts, startedFrom, edit.bases]);

  const isEditing = useCallback((id: string) => modes[id]?.mode === GridRowModes.Edit, [modes]);

  /** Why the last save of row `id` refused `field`, if it did, and which refusal that was. */
  const messageOf = useCallback(
    (id: string, field: string) => {
      const refused = messages[id];
      const text = refused?.fields[field];
      return text === undefined ? undefined : { text, attempt: refused!.attempt };
    },
    [messages],
  );

  const processRowUpdate = async (row: Row, previous: Row): Promise<Row> => {
    const { valuesOf, create, onSaved, validate } = latest.current;
    const problems = validate?.(row);
    if (problems) {
      failedSaves.current.add(row._id);
      refuse(row._id, problems);
      throw new RefusedRow();
    }
    setMessages((known) => withoutKey(known, row._id));
    try {
      if (isDraft(row._id)) {
        const stored = await create!(row);
        removeDraft(row._id);
        onSaved?.(stored);
        return stored;
      }
      // Saved, or nothing to save: the edit is over (the grid leaves edit mode itself).
      const stored =
        JSON.stringify(valuesOf(row)) === JSON.stringify(valuesOf(previous))
          ? row
          : await edit.save(row._id, valuesOf(row));
      end(row._id);
      forget(row._id);
      if (stored !== row) onSaved?.(stored);
      return stored;
    } catch (failure) {
      failedSaves.current.add(row._id);
      const refused = refusedFields(failure);
      if (!refused) throw failure;
      refuse(row._id, refused);
      throw new RefusedRow();
    }
  };

  /** The fields a 400 names, when every one is a field of the values; else undefined. */
  const refusedFields = (failure: unknown) => {
    const { fieldOfError } = latest.current;
    const named = fieldErrors(failure).map((error) => [fieldOfError?.(error.field), error.message]);
    return named.length && named.every(([field]) => field !== undefined)
      ? (Object.fromEntries(named) as Record<string, string>)
      : undefined;
  };

  const gridProps = {
    rows,
    getRowId: (row: Row) => row._id,
    editMode: 'row' as const,
    rowModesModel: modes,
    onRowModesModelChange: (next: GridRowModesModel) => {
      // Keep the one-editing-row rule when the grid starts an edit itself (double click,
      // Enter). A row whose save failed comes back to edit mode too: it stays, and no other
      // row is sent off to be saved for it.
      const started = Object.keys(next).filter(
        (id) =>
          next[id]!.mode === GridRowModes.Edit &&
          modes[id]?.mode !== GridRowModes.Edit &&
          !failedSaves.current.delete(id),
      );
      // Escape ends an edit with nothing saved; a new row goes altogether.
      for (const [id, mode] of Object.entries(next)) {
        if (mode.mode === GridRowModes.View && mode.ignoreModifications) {
          if (modes[id]?.mode === GridRowModes.Edit) cancelEdit(id);
        }
      }
      const row = started.length === 1 ? rows.find((r) => r._id === started[0]) : undefined;
      if (row && !isDraft(row._id)) beginRow(row);
      setModes(started.length === 1 ? startEditing(modes, started[0]!) : next);
    },
    // Enter on a cell starts its row's edit, and is not also typed into the editor that takes
    // the focus (a long text's box took it as a new line).
    onCellKeyDown: (params: GridCellParams, event: KeyboardEvent) => {
      if (event.key === 'Enter' && params.cellMode === 'view' && params.isEditable) {
        event.preventDefault();
      }
    },
    processRowUpdate,
    onProcessRowUpdateError: (failure: unknown) => {
      // A conflict or a deletion is not a fault: the notices show it; refused values are
      // told under their cells.
      if (failure instanceof RefusedRow) return;
      if (conflictCurrent(failure) || errorCode(failure) === 'NOT_FOUND') return;
      latest.current.onFailed?.(failure);
      reportError(latest.current.errorContext, failure);
    },
  };

  return {
    ...edit,
    gridProps,
    /** The row being edited, if any. */
    editingId,
    isEditing,
    isDraft,
    startEdit,
    saveEdit,
    cancelEdit,
    addRow,
    messageOf,
  };
}

/** A row not sent: its values have problems (shown under their cells). */
class RefusedRow extends Error {
  constructor() {
    super('The row has values to correct');
  }
}
