import { Alert, Button } from '@mui/material';
import { useT } from '@/i18n/useT';

interface ChangedMeanwhileAlertProps {
  /** Who saved it, when the event stream said. */
  by: string | null;
  /**
   * What they saved, as a sentence names it, in the language in effect: `the record «Car»`,
   * `this entity` (`la fiche «Car»`, `cette entité`).
   */
  what: string;
  /** Opens the comparison of their version with this edit. */
  onReview(): void;
}

/** Someone saved the item being edited: the edit is kept, and the person is asked to review. */
export function ChangedMeanwhileAlert({ by, what, onReview }: ChangedMeanwhileAlertProps) {
  const t = useT();
  return (
    <Alert
      severity="warning"
      action={
        <Button color="inherit" size="small" onClick={onReview}>
          {t('edit.review')}
        </Button>
      }
    >
      {by === null ? t('edit.changedBySomeone', { what }) : t('edit.changedBy', { by, what })}
    </Alert>
  );
}
