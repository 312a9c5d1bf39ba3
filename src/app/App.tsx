import { CssBaseline, ThemeProvider } from '@mui/material';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { Toasts } from '@/ui/Toasts';
import type { AppStore } from './store';
import { theme } from './theme';

/** Everything a screen needs around it: the store, the theme and the toasts. */
export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <Toasts />
        {children}
      </ThemeProvider>
    </Provider>
  );
}
