import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
} from '@mui/material';
import { compareValues } from '@common/versionChanges';
import { t as translate, useT } from '@/i18n/useT';

export interface ConflictDialogProps {
  /**
   * What was being saved, as a sentence names it, in the language in effect: `the record
   * «Car»`, `the entity Car` (`la fiche «Car»`, `l'entité Car`).
   */
  what: string;
  /** Who saved meanwhile, when the event stream told. */
  changedBy?: string | null;
  /** The values the edit started from. */
  base: Record<string, unknown>;
  /** The values saved meanwhile (the server's `current`). */
  theirs: Record<string, unknown>;
  /** The values this person tried to save. */
  mine: Record<string, unknown>;
  /** A field's name as the screen labels it. */
  labelOf?(field: string): string;
  busy?: boolean;
  onKeepTheirs(): void;
  onApplyMine(): void;
  onEditFurther(): void;
}

const shown = (value: unknown) =>
  value === null || value === undefined
    ? translate('edit.empty')
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

const changeText = (change?: { from: unknown; to: unknown }) =>
  change ? `${shown(change.from)} → ${shown(change.to)}` : translate('edit.unchanged');

/**
 * A save met a newer version (409 VERSION_CONFLICT): what the other person changed against
 * what this one changed, field by field (the comparison of version history), and the
 * three ways on: keep theirs, apply mine on top, or edit further.
 */
export function ConflictDialog({
  what,
  changedBy,
  base,
  theirs,
  mine,
  labelOf = (field) => field,
  busy = false,
  onKeepTheirs,
  onApplyMine,
  onEditFurther,
}: ConflictDialogProps) {
  const t = useT();
  const theirChanges = compareValues(base, theirs);
  const myChanges = compareValues(base, mine);
  const fields = [...new Set([...theirChanges, ...myChanges].map((change) => change.field))].sort();
  return (
    <Dialog open onClose={onEditFurther} aria-labelledby="conflict-title" maxWidth="md" fullWidth>
      <DialogTitle id="conflict-title">
        {changedBy
          ? t('edit.conflictTitle', { by: changedBy, what })
          : t('edit.conflictTitleSomeone', { what })}
      </DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('edit.notSavedYet')}</DialogContentText>
        <Table size="small" aria-label={t('edit.comparison')}>
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col">
                {t('edit.field')}
              </TableCell>
              <TableCell component="th" scope="col">
                {t('edit.theirChange')}
              </TableCell>
              <TableCell component="th" scope="col">
                {t('edit.yourChange')}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {fields.map((field) => (
              <TableRow key={field}>
                <TableCell component="th" scope="row">
                  {labelOf(field)}
                </TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>
                  {changeText(theirChanges.find((change) => change.field === field))}
                </TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>
                  {changeText(myChanges.find((change) => change.field === field))}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onKeepTheirs} disabled={busy}>
          {t('edit.keepTheirs')}
        </Button>
        <Button onClick={onEditFurther} disabled={busy}>
          {t('edit.editFurther')}
        </Button>
        <Button variant="contained" onClick={onApplyMine} disabled={busy}>
          {t('edit.applyMine')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
