import { Alert, Button } from '@mui/material';

interface ChangedMeanwhileAlertProps {
  /** Who saved it, when the event stream said. */
  by: string | null;
  /** What they saved, as a sentence names it: `record 2`, `ada`, `this entity`. */
  what: string;
  /** Opens the comparison of their version with this edit. */
  onReview(): void;
}

/** Someone saved the item being edited: the edit is kept, and the person is asked to review. */
export function ChangedMeanwhileAlert({ by, what, onReview }: ChangedMeanwhileAlertProps) {
  return (
    <Alert
      severity="warning"
      action={
        <Button color="inherit" size="small" onClick={onReview}>
          Review
        </Button>
      }
    >
      Changed by {by ?? 'someone else'} — review: they saved {what} while you were editing it.
    </Alert>
  );
}
