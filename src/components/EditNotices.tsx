import { Stack } from '@mui/material';
import type { EditValues, VersionedEdit, Versioned } from '@/hooks/useVersionedEdit';
import { valuesAsText } from '@/lib/editing';
import { ChangedMeanwhileAlert } from './ChangedMeanwhileAlert';
import { ConflictDialog } from './ConflictDialog';
import { DeletedMeanwhileAlert } from './DeletedMeanwhileAlert';

interface EditNoticesProps<Item extends Versioned, Values extends EditValues> {
  edit: VersionedEdit<Item, Values>;
  /**
   * Item `id` as a sentence names it, in the language in effect: `the record «Car»`, `the
   * user ada`, `this entity` (`la fiche «Car»`, `l'utilisateur ada`, `cette entité`).
   */
  nameOf(id: string): string;
  /** What the comparison and the copy show of the values (by default, the values). */
  shownValues?(values: Values): EditValues;
  /** A field's name as the screen labels it. */
  labelOf?(field: string): string;
}

const asThey = (values: EditValues) => values;

/**
 * What the one edit machine has to say, the same on every screen: another person's save
 * of the item being edited (review it), its deletion (restore and apply mine, copy my
 * values, discard), and a save that met a newer version (keep theirs, edit further, apply
 * mine).
 */
export function EditNotices<Item extends Versioned, Values extends EditValues>({
  edit,
  nameOf,
  shownValues = asThey,
  labelOf,
}: EditNoticesProps<Item, Values>) {
  const { changedMeanwhile, deletions, conflict } = edit;
  const showsChange =
    changedMeanwhile && !deletions.some((gone) => gone.id === changedMeanwhile.id);
  return (
    <>
      {(showsChange || deletions.length > 0) && (
        <Stack spacing={1} sx={{ mb: 2 }}>
          {deletions.map((gone) => (
            <DeletedMeanwhileAlert
              key={gone.id}
              by={gone.by}
              what={nameOf(gone.id)}
              busy={edit.busy}
              onRestoreAndApply={
                edit.mayRestore ? () => edit.restoreAndApplyMine(gone.id) : undefined
              }
              typedText={() => valuesAsText(shownValues(edit.typedValues(gone.id)), labelOf)}
              onDiscard={() => edit.discard(gone.id)}
            />
          ))}
          {showsChange && (
            <ChangedMeanwhileAlert
              by={changedMeanwhile.by}
              what={nameOf(changedMeanwhile.id)}
              onReview={changedMeanwhile.review}
            />
          )}
        </Stack>
      )}
      {conflict && (
        <ConflictDialog
          what={nameOf(conflict.id)}
          changedBy={conflict.by}
          base={shownValues(conflict.base.values)}
          theirs={shownValues(conflict.theirValues)}
          mine={shownValues(conflict.mine)}
          labelOf={labelOf}
          busy={edit.busy}
          onKeepTheirs={conflict.keepTheirs}
          onEditFurther={conflict.editFurther}
          onApplyMine={conflict.applyMine}
        />
      )}
    </>
  );
}
