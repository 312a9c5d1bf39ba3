import { styled } from '@mui/material/styles';
import { MaterialDesignContent, SnackbarProvider } from 'notistack';
import { Notifier } from './Notifier';

/**
 * notistack's own colours put white text on light greens, blues and oranges (3.3:1 for a
 * success); these meet WCAG's 4.5:1.
 */
const Toast = styled(MaterialDesignContent)(({ theme }) => ({
  '&.notistack-MuiContent-success': { backgroundColor: theme.palette.success.dark },
  '&.notistack-MuiContent-error': { backgroundColor: theme.palette.error.dark },
  '&.notistack-MuiContent-info': { backgroundColor: theme.palette.info.dark },
  '&.notistack-MuiContent-warning': {
    backgroundColor: theme.palette.warning.light,
    color: theme.palette.common.black,
  },
}));

const toasts = { success: Toast, error: Toast, info: Toast, warning: Toast };

/** notistack's host for the ui slice's toasts (Notifier), at the bottom right. */
export function ToastHost() {
  return (
    <SnackbarProvider
      maxSnack={4}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      Components={toasts}
    >
      <Notifier />
    </SnackbarProvider>
  );
}
