import { CssBaseline, ThemeProvider } from '@mui/material';
import { SnackbarProvider } from 'notistack';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { Notifier } from '@/ui/Notifier';
import type { AppStore } from './store';
import { theme } from './theme';

/** Everything a screen needs around it: the store, the theme and the toasts. */
export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <SnackbarProvider maxSnack={4} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}>
          <Notifier />
          {children}
        </SnackbarProvider>
      </ThemeProvider>
    </Provider>
  );
}
