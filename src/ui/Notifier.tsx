import { Button } from '@mui/material';
import { type SnackbarKey, useSnackbar } from 'notistack';
import { useEffect, useRef } from 'react';
import { ERROR_TOAST_MS, TOAST_MS, UNDO_TOAST_MS } from '@common/constants';
import { messages } from '@common/messages';
import type { UndoRequest } from '@/api/undo';
import { useAppDispatch, useAppSelector } from '@/lib/store';
import { selectToasts, toastClosed, undoRequested } from './ui.slice';

/**
 * Shows the ui slice's toasts through notistack: errors for 2 s, the others for 3 s; a
 * delete's for 5 s with Undo, which restores what was deleted.
 */
export function Notifier() {
  const toasts = useAppSelector(selectToasts);
  const dispatch = useAppDispatch();
  const { enqueueSnackbar, closeSnackbar } = useSnackbar();
  const shown = useRef(new Set<string>());

  useEffect(() => {
    const undoWith = (undo: UndoRequest) =>
      function UndoButton(key: SnackbarKey) {
        return (
          <Button
            color="inherit"
            size="small"
            onClick={() => {
              closeSnackbar(key);
              dispatch(undoRequested(undo));
            }}
          >
            {messages.client.undo}
          </Button>
        );
      };
    for (const { key, message, variant, undo } of toasts) {
      if (shown.current.has(key)) continue;
      shown.current.add(key);
      enqueueSnackbar(message, {
        key,
        variant,
        autoHideDuration: undo ? UNDO_TOAST_MS : variant === 'error' ? ERROR_TOAST_MS : TOAST_MS,
        ...(undo ? { action: undoWith(undo) } : {}),
        onExited: () => {
          shown.current.delete(key);
          dispatch(toastClosed(key));
        },
      });
    }
  }, [toasts, enqueueSnackbar, closeSnackbar, dispatch]);

  return null;
}
