import { SnackbarProvider } from 'notistack';
import { Notifier } from './Notifier';

/** notistack's host for the ui slice's toasts (Notifier), at the bottom right. */
export function ToastHost() {
  return (
    <SnackbarProvider maxSnack={4} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}>
      <Notifier />
    </SnackbarProvider>
  );
}
