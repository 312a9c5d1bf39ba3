import { useSnackbar } from 'notistack';
import { useEffect, useRef } from 'react';
import { ERROR_TOAST_MS, TOAST_MS } from '@common/constants';
import { useAppDispatch, useAppSelector } from '@/lib/store';
import { selectToasts, toastClosed } from './ui.slice';

/** Shows the ui slice's toasts through notistack: errors for 2 s, the others for 3 s. */
export function Notifier() {
  const toasts = useAppSelector(selectToasts);
  const dispatch = useAppDispatch();
  const { enqueueSnackbar } = useSnackbar();
  const shown = useRef(new Set<string>());

  useEffect(() => {
    for (const { key, message, variant } of toasts) {
      if (shown.current.has(key)) continue;
      shown.current.add(key);
      enqueueSnackbar(message, {
        key,
        variant,
        autoHideDuration: variant === 'error' ? ERROR_TOAST_MS : TOAST_MS,
        onExited: () => {
          shown.current.delete(key);
          dispatch(toastClosed(key));
        },
      });
    }
  }, [toasts, enqueueSnackbar, dispatch]);

  return null;
}
