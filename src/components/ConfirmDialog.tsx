import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import { useId } from 'react';
import { editingSentence } from '@/lib/editing';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  /** Who else is editing the item: the question says so ("ada is editing it."). */
  editors?: string[];
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
  confirmLabel = 'Delete',
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {editors.length > 0 ? `${message} ${editingSentence(editors, 'it')}` : message}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} autoFocus>
          Cancel
        </Button>
        <Button onClick={onConfirm} color="error" variant="contained">
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
