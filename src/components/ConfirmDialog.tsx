import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import { useId } from 'react';
import { useT } from '@/i18n/useT';
import { editingSentence } from '@/lib/editing';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  /** Who else is editing the item: the question says so ("ada is editing it."). */
  editors?: string[];
  /** The confirming button's label; by default Delete. */
  confirmLabel?: string;
  onConfirm(): void;
  onCancel(): void;
}

/** Asks before a destructive action; nothing happens unless the person confirms. */
export function ConfirmDialog({
  open,
  title,
  message,
  editors = [],
  confirmLabel,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const t = useT();
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {editors.length > 0
            ? `${message} ${editingSentence(editors, t('dialog.editedItem'))}`
            : message}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} autoFocus>
          {t('common.cancel')}
        </Button>
        <Button onClick={onConfirm} color="error" variant="contained">
          {confirmLabel ?? t('common.delete')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
