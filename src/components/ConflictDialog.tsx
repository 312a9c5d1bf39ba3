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

export interface ConflictDialogProps {
  /** What was being saved, as a sentence names it: `record 2`, `the entity Car`. */
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
    ? '(empty)'
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

const changeText = (change?: { from: unknown; to: unknown }) =>
  change ? `${shown(change.from)} → ${shown(change.to)}` : 'unchanged';

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
  const theirChanges = compareValues(base, theirs);
  const myChanges = compareValues(base, mine);
  const fields = [...new Set([...theirChanges, ...myChanges].map((change) => change.field))].sort();
  const who = changedBy ?? 'Someone else';
  return (
    <Dialog open onClose={onEditFurther} aria-labelledby="conflict-title" maxWidth="md" fullWidth>
      <DialogTitle id="conflict-title">
        {who} changed {what} while you were editing
      </DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          Your changes are not saved yet. Compare them with theirs, then choose.
        </DialogContentText>
        <Table size="small" aria-label="Their changes and yours">
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col">
                Field
              </TableCell>
              <TableCell component="th" scope="col">
                Their change
              </TableCell>
              <TableCell component="th" scope="col">
                Your change
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
          Keep theirs
        </Button>
        <Button onClick={onEditFurther} disabled={busy}>
          Edit further
        </Button>
        <Button variant="contained" onClick={onApplyMine} disabled={busy}>
          Apply mine
        </Button>
      </DialogActions>
    </Dialog>
  );
}
