import { Button } from '@mui/material';
import { type SnackbarKey, useSnackbar } from 'notistack';
import { useEffect, useRef, useState } from 'react';
import { ERROR_TOAST_MS, TOAST_MS, UNDO_TOAST_MS } from '@common/constants';
import { useT } from '@/i18n/useT';
import type { UndoRequest } from '@/api/undo';
import { useAppDispatch, useAppSelector } from '@/lib/store';
import { selectToasts, toastClosed, undoRequested } from './ui.slice';

/**
 * A delete's Undo: the toast stays while the keyboard or the pointer is on it, and goes
 * UNDO_TOAST_MS after it is left (or shown). After Undo the keyboard goes back to where it
 * came from, not to the top of the page.
 */
function UndoAction({ onUndo, onExpired }: { onUndo(): void; onExpired(): void }) {
  const t = useT();
  const [held, setHeld] = useState(false);
  const cameFrom = useRef<HTMLElement | null>(null);
  // The toast may render again meanwhile: only holding it starts the time again.
  const expired = useRef(onExpired);
  useEffect(() => {
    expired.current = onExpired;
  });
  useEffect(() => {
    if (held) return;
    const timer = setTimeout(() => expired.current(), UNDO_TOAST_MS);
    return () => clearTimeout(timer);
  }, [held]);
  return (
    <Button
      color="inherit"
      size="small"
      onFocus={(event) => {
        cameFrom.current = event.relatedTarget instanceof HTMLElement ? event.relatedTarget : null;
        setHeld(true);
      }}
      onBlur={() => setHeld(false)}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onClick={() => {
        onUndo();
        if (cameFrom.current?.isConnected) cameFrom.current.focus();
      }}
    >
      {t('toast.undo')}
    </Button>
  );
}

/**
 * Shows the ui slice's toasts through notistack: errors for 2 s, the others for 3 s; a
 * delete's for 5 s with Undo (UndoAction), which restores what was deleted.
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
          <UndoAction
            onUndo={() => {
              closeSnackbar(key);
              dispatch(undoRequested(undo));
            }}
            onExpired={() => closeSnackbar(key)}
          />
        );
      };
    for (const { key, message, variant, undo } of toasts) {
      if (shown.current.has(key)) continue;
      shown.current.add(key);
      enqueueSnackbar(message, {
        key,
        variant,
        // A delete's toast closes itself (UndoAction), the others after their time.
        ...(undo
          ? { persist: true, action: undoWith(undo) }
          : { autoHideDuration: variant === 'error' ? ERROR_TOAST_MS : TOAST_MS }),
        onExited: () => {
          shown.current.delete(key);
          dispatch(toastClosed(key));
        },
      });
    }
  }, [toasts, enqueueSnackbar, closeSnackbar, dispatch]);

  return null;
}
