import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ChangeResource } from '@common/schemas/events';
import { conflictCurrent, errorCode, reportError } from '@/api/errors';
import { itemKey } from '@/api/live.slice';
import { useAppSelector } from '@/lib/store';
import { rebased, withoutKey } from '@/lib/editing';
import { useAnnounceEditing, useEditors } from './usePresence';

/** What an edit changes, field by field. */
export type EditValues = Record<string, unknown>;

/** An item the server versions: its id and its version (1, then +1 per change). */
export interface Versioned {
  _id: string;
  _version: number;
}

/** What an edit started from: the version its save names, and the values then. */
export interface EditBase<Values extends EditValues> {
  version: number;
  values: Values;
}

/** A save that met a newer version: what the edit started from, what it tried, what it found. */
export interface EditConflict<Item, Values extends EditValues> {
  id: string;
  base: EditBase<Values>;
  mine: Values;
  theirs: Item;
  /** Who saved theirs, when the event stream said. */
  by: string | null;
}

/** An item someone else deleted while it was being edited here. */
export interface EditDeletion {
  id: string;
  /** Who deleted it, when the event stream said. */
  by: string | null;
}

export interface VersionedEditOptions<Item extends Versioned, Values extends EditValues> {
  resource: ChangeResource;
  /** For a record: its entity (presence names it). */
  entityName?: string;
  /** The item being edited on screen now, announced to the others; none: nothing is. */
  editingId: string | undefined;
  /** The item a form's edit starts from (a grid's rows start theirs with `begin`). */
  startsFrom?: Item;
  /** The item as the cache holds it now (undefined: not there). */
  itemOf(id: string): Item | undefined;
  /** What an edit of the item changes and sends. */
  valuesOf(item: Item): Values;
  /**
   * The item as the screen holds it, from the server's form of it (a conflict's `current`);
   * by default the same.
   */
  fromServer?(current: unknown): Item;
  /** What is typed in the edit of `id` now. */
  typedValues(id: string): Values;
  /** Saves `values` as item `id` over version `version`; resolves to the stored item. */
  send(id: string, values: Values, version: number): Promise<Item>;
  /** Brings back item `id` as it was deleted; absent where the user may not. */
  restore?(id: string): Promise<Item>;
  /** Whether item `id` is known to be gone (a fresh read lacks it) though no event said so. */
  isGone?(id: string): boolean;
  /**
   * The edit of `id` has come to `item`: theirs kept, or mine saved over theirs (`kept`).
   * The screen shows it; the edit's base is `item` from now on.
   */
  onSettled(id: string, item: Item, kept: 'theirs' | 'mine'): void;
  /** The edit of `id` is dropped (Discard after a deletion). */
  onDiscarded(id: string): void;
  /** Puts `values` in the edit of `id` (Edit further: mine, rebased on theirs). */
  show(id: string, values: Values): void;
  /**
   * Whether anything is typed in the edit of `id` (a form open on an item). Without, the
   * edit is its item: another person's save comes into it as it is, not as a conflict.
   */
  isDirty?(id: string): boolean;
  /** Gives the keyboard back to the edit of `id` (or, gone, to where it was) after a choice. */
  focus?(id: string): void;
  /**
   * Edit further chose to go on with mine, rebased on `theirs`, where the screen has no edit
   * open (a list's one-click change): the screen opens one. By default the edit stays, and
   * `show` puts the rebased values in it.
   */
  onEditFurther?(id: string, mine: Values, theirs: Item): void;
  /** The shared handler's context for a failed save. */
  errorContext: string;
  /** A save that failed otherwise than by a conflict or a deletion (to explain it). */
  onFailed?(failure: unknown): void;
}

/**
 * The one edit machine for every versioned item (STYLE "One edit machine"), for a form
 * (`useVersionedEdit` on one id) or for grid rows (`useVersionedRowEdit`). Per item being
 * edited it keeps the base, the version a save names (`If-Match`), so another person's save
 * meanwhile is a conflict to resolve rather than overwritten; it announces the item being
 * edited and tells who else is editing which; and it says when the item was changed or
 * deleted meanwhile. The conflict's three ways on mean one thing everywhere:
 * - Keep theirs: drop mine and show theirs;
 * - Edit further: keep mine, rebased on theirs (my changes on top of theirs, their changes
 *   to fields I left as they were kept), still editing;
 * - Apply mine: save mine over theirs, rebased the same way.
 * A deleted item's edit stays on screen: Restore and apply mine (where allowed), Copy my
 * values, or Discard. Nothing typed is dropped without the person choosing it.
 */
export function useVersionedEdit<Item extends Versioned, Values extends EditValues>(
  options: VersionedEditOptions<Item, Values>,
) {
  const { resource, entityName, editingId } = options;
  // The latest options, for callbacks that outlive a render (a save on its way).
  const latest = useRef(options);
  useLayoutEffect(() => {
    latest.current = options;
  });
  /** The newer version a 409 VERSION_CONFLICT carries, as the screen holds items. */
  const currentOf = useCallback((failure: unknown) => {
    const current = conflictCurrent<unknown>(failure);
    const { fromServer = (item: unknown) => item as Item } = latest.current;
    return current === undefined ? undefined : fromServer(current);
  }, []);
  const baseOf = useCallback(
    (item: Item): EditBase<Values> => ({
      version: item._version,
      values: latest.current.valuesOf(item),
    }),
    [],
  );

  const [bases, setBases] = useState<Record<string, EditBase<Values>>>(() => {
    const { startsFrom, valuesOf } = options;
    return startsFrom
      ? { [startsFrom._id]: { version: startsFrom._version, values: valuesOf(startsFrom) } }
      : {};
  });
  const [conflict, setConflict] = useState<EditConflict<Item, Values>>();
  /**
   * Deletions a save found (404), with the version of the last change heard of the item then
   * (-1: none); the event stream tells the others.
   */
  const [foundGone, setFoundGone] = useState<Record<string, number>>({});
  const [busy, setBusy] = useState(false);

  const me = useAppSelector((state) => state.auth.user?._id);
  const heard = useAppSelector((state) => state.live?.changes);

  /** The edit of `item` starts from it (unless it already started). */
  const begin = useCallback(
    (item: Item) => {
      const base = baseOf(item);
      setBases((known) => (item._id in known ? known : { ...known, [item._id]: base }));
    },
    [baseOf],
  );

  /** The edit of `item` goes on from it (a restore the screen took). */
  const rebase = useCallback(
    (item: Item) => setBases((known) => ({ ...known, [item._id]: baseOf(item) })),
    [baseOf],
  );

  /** The edit of `id` is over (saved, cancelled, discarded). */
  const end = useCallback((id: string) => {
    setBases((known) => withoutKey(known, id));
    setFoundGone((known) => withoutKey(known, id));
    setConflict((open) => (open?.id === id ? undefined : open));
  }, []);

  const heardOf = useCallback(
    (id: string) => (heard ? heard[itemKey(resource, id)] : undefined),
    [heard, resource],
  );

  /**
   * Saves `values` as the edit of `id` (over its base's version). A newer version opens the
   * conflict, a deletion the deleted notice; either way the promise rejects, and the edit
   * stays as typed.
   */
  const save = useCallback(
    async (id: string, values: Values, baseItem?: Item): Promise<Item> => {
      const base = bases[id] ?? (baseItem && baseOf(baseItem));
      if (!base) throw new Error(`No edit of ${id} was started`);
      try {
        const stored = await latest.current.send(id, values, base.version);
        setBases((known) => (id in known ? { ...known, [id]: baseOf(stored) } : known));
        return stored;
      } catch (failure) {
        const theirs = currentOf(failure);
        if (theirs) {
          setBases((known) => ({ ...known, [id]: base }));
          setConflict({ id, base, mine: values, theirs, by: heardOf(id)?.actor ?? null });
        } else if (errorCode(failure) === 'NOT_FOUND') {
          setBases((known) => ({ ...known, [id]: base }));
          setFoundGone((known) => ({ ...known, [id]: heardOf(id)?.version ?? -1 }));
        }
        throw failure;
      }
    },
    [bases, heardOf, baseOf, currentOf],
  );

  /**
   * A form's save: resolves to the stored item, or to undefined when a conflict or a
   * deletion met it (their notices show it); any other failure rejects, for the form.
   */
  const submit = useCallback(
    async (id: string, values: Values, baseItem?: Item): Promise<Item | undefined> => {
      try {
        return await save(id, values, baseItem);
      } catch (failure) {
        if (conflictCurrent(failure) || errorCode(failure) === 'NOT_FOUND') return undefined;
        throw failure;
      }
    },
    [save],
  );

  /** Sends `values` over `version`: a newer one reopens the conflict, with theirs updated. */
  async function resolveBySaving(id: string, values: Values, version: number) {
    setBusy(true);
    try {
      const stored = await latest.current.send(id, values, version);
      setConflict(undefined);
      setBases((known) => ({ ...known, [id]: baseOf(stored) }));
      latest.current.onSettled(id, stored, 'mine');
      latest.current.focus?.(id);
    } catch (failure) {
      const current = currentOf(failure);
      if (current) setConflict((open) => open && { ...open, theirs: current });
      else if (errorCode(failure) === 'NOT_FOUND') {
        setConflict(undefined);
        setFoundGone((known) => ({ ...known, [id]: heardOf(id)?.version ?? -1 }));
      } else {
        latest.current.onFailed?.(failure);
        reportError(latest.current.errorContext, failure);
      }
    } finally {
      setBusy(false);
    }
  }

  // Edits whose item someone else deleted since their base (a restore and a save since
  // make a newer base), or whose save found it gone, unless a change heard since says it is
  // back (restored here from Recently deleted, or elsewhere).
  const deletions: EditDeletion[] = [];
  for (const [id, base] of Object.entries(bases)) {
    const change = heardOf(id);
    const deletedByOther =
      change?.action === 'delete' && change.actorId !== me && change.version >= base.version;
    const goneAsOf = foundGone[id];
    const foundGoneStill =
      goneAsOf !== undefined &&
      !(change && change.action !== 'delete' && change.version > goneAsOf);
    if (deletedByOther || foundGoneStill || options.isGone?.(id))
      deletions.push({ id, by: deletedByOther ? change.actor : null });
  }

  const editingBase = editingId === undefined ? undefined : bases[editingId];
  const editingChange = editingId === undefined ? undefined : heardOf(editingId);
  const changedMeanwhile =
    editingId !== undefined &&
    editingBase &&
    editingChange &&
    editingChange.action !== 'delete' &&
    editingChange.actorId !== me &&
    editingChange.version > editingBase.version
      ? { id: editingId, by: editingChange.actor }
      : undefined;

  useAnnounceEditing(
    editingId !== undefined && !deletions.some((gone) => gone.id === editingId)
      ? { resource, id: editingId, entityName }
      : undefined,
  );
  const editors = useEditors(resource);

  /** Who saved theirs: the stream may tell after the save met it. */
  function savedBy(open: EditConflict<Item, Values>) {
    const change = heardOf(open.id);
    return change && change.actorId !== me && change.version >= open.theirs._version
      ? change.actor
      : open.by;
  }

  /** Compares their version with the edit of `id`, as a save would meet it. */
  function review(id: string) {
    const base = bases[id];
    const theirs = latest.current.itemOf(id);
    if (!base || !theirs) return;
    const mine = latest.current.typedValues(id);
    setConflict({ id, base, mine, theirs, by: heardOf(id)?.actor ?? null });
  }

  /** The edit of `id` comes to `theirs`, as a form with nothing typed does. */
  function takeTheirs(id: string, theirs: Item) {
    setBases((known) => ({ ...known, [id]: baseOf(theirs) }));
    latest.current.onSettled(id, theirs, 'theirs');
  }

  /** My changes since the edit's base, on top of theirs. */
  const mineOn = (open: EditConflict<Item, Values>, theirs: Item) =>
    rebased(open.base.values, open.mine, latest.current.valuesOf(theirs));

  /** Drops mine and shows theirs. */
  function keepTheirs(open: EditConflict<Item, Values>) {
    setConflict(undefined);
    setBases((known) => ({ ...known, [open.id]: baseOf(open.theirs) }));
    latest.current.onSettled(open.id, open.theirs, 'theirs');
    latest.current.focus?.(open.id);
  }

  /** Keeps mine, rebased on theirs: the next save names their version. Still editing. */
  function editFurther(open: EditConflict<Item, Values>) {
    const mine = mineOn(open, open.theirs);
    setConflict(undefined);
    setBases((known) => ({ ...known, [open.id]: baseOf(open.theirs) }));
    const { onEditFurther, show, focus } = latest.current;
    if (onEditFurther) onEditFurther(open.id, mine, open.theirs);
    else show(open.id, mine);
    focus?.(open.id);
  }

  /** Brings the deleted item back, then saves what is typed over it. */
  async function restoreAndApplyMine(id: string) {
    const { restore, typedValues, valuesOf, errorContext } = latest.current;
    const base = bases[id];
    if (!restore || !base) return;
    setBusy(true);
    try {
      const restored = await restore(id);
      setFoundGone((known) => withoutKey(known, id));
      const mine = rebased(base.values, typedValues(id), valuesOf(restored));
      await resolveBySaving(id, mine, restored._version);
    } catch (failure) {
      reportError(errorContext, failure);
    } finally {
      setBusy(false);
    }
  }

  /** Drops the edit of a deleted item. */
  function discard(id: string) {
    end(id);
    latest.current.onDiscarded(id);
    latest.current.focus?.(id);
  }

  // A form with nothing typed is its item: another person's save comes into it as it is.
  useEffect(() => {
    const { isDirty, itemOf } = latest.current;
    if (!isDirty) return;
    for (const [id, base] of Object.entries(bases)) {
      const item = itemOf(id);
      if (item && item._version > base.version && !isDirty(id) && conflict?.id !== id)
        takeTheirs(id, item);
    }
  });

  return {
    /** The base of each edit open now, by id. */
    bases,
    begin,
    rebase,
    end,
    save,
    submit,
    /** Who else is editing each item of the resource, by id. */
    editors,
    /** Someone else saved the item being edited since its edit started: `review` compares. */
    changedMeanwhile: changedMeanwhile && {
      ...changedMeanwhile,
      review: () => review(changedMeanwhile.id),
    },
    /** A save met a newer version: the three ways on (none once it is deleted: see below). */
    conflict:
      conflict && !deletions.some((gone) => gone.id === conflict.id)
        ? {
            ...conflict,
            by: savedBy(conflict),
            theirValues: options.valuesOf(conflict.theirs),
            keepTheirs: () => keepTheirs(conflict),
            editFurther: () => editFurther(conflict),
            /** Saves mine over theirs. */
            applyMine: () =>
              void resolveBySaving(
                conflict.id,
                mineOn(conflict, conflict.theirs),
                conflict.theirs._version,
              ),
          }
        : undefined,
    /** The items deleted by someone else while being edited here. */
    deletions,
    /** Whether a deleted item can be brought back here (`restoreAndApplyMine`). */
    mayRestore: options.restore !== undefined,
    restoreAndApplyMine: (id: string) => void restoreAndApplyMine(id),
    /** What is typed in the edit of `id` (Copy my values). */
    typedValues: (id: string) => latest.current.typedValues(id),
    discard,
    busy,
  };
}

export type VersionedEdit<Item extends Versioned, Values extends EditValues> = ReturnType<
  typeof useVersionedEdit<Item, Values>
>;
