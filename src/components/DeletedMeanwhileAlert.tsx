import { Alert, AlertTitle, Button, Stack, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { useT } from '@/i18n/useT';

interface DeletedMeanwhileAlertProps {
  /** Who deleted it, when the event stream said. */
  by: string | null;
  /**
   * What was deleted, as a sentence names it, in the language in effect: `the record «Car»`,
   * `the user ada` (`la fiche «Car»`, `l'utilisateur ada`).
   */
  what: string;
  busy?: boolean;
  /** Brings it back with what is typed; absent where the user may not restore. */
  onRestoreAndApply?(): void;
  /** What is typed, as text to paste elsewhere. */
  typedText(): string;
  onDiscard(): void;
}

/**
 * Someone deleted the item being edited: what is typed stays on screen, and the person
 * chooses: bring it back with their changes, copy their values, or discard them.
 */
export function DeletedMeanwhileAlert({
  by,
  what,
  busy = false,
  onRestoreAndApply,
  typedText,
  onDiscard,
}: DeletedMeanwhileAlertProps) {
  const t = useT();
  const [copied, setCopied] = useState<'yes' | 'failed'>();
  const titleId = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(typedText());
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }
  return (
    <Alert severity="error" role="alert" aria-labelledby={titleId}>
      <AlertTitle id={titleId}>
        {by === null ? t('edit.deletedBySomeone', { what }) : t('edit.deletedBy', { by, what })}
      </AlertTitle>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('edit.stillHere')}
      </Typography>
      <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1 }}>
        {onRestoreAndApply && (
          <Button size="small" variant="contained" disabled={busy} onClick={onRestoreAndApply}>
            {t('edit.restoreAndApply')}
          </Button>
        )}
        <Button size="small" variant="outlined" color="inherit" onClick={() => void copy()}>
          {t('edit.copyValues')}
        </Button>
        <Button size="small" color="inherit" disabled={busy} onClick={onDiscard}>
          {t('edit.discard')}
        </Button>
      </Stack>
      <Typography role="status" variant="body2" sx={{ mt: copied ? 1 : 0 }}>
        {copied === 'yes' && t('edit.copied')}
        {copied === 'failed' && t('edit.copyFailed')}
      </Typography>
    </Alert>
  );
}
