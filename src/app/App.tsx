import { CssBaseline, ThemeProvider } from '@mui/material';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MODE_STORAGE_KEY } from '@common/colorScheme';
import { Toasts } from '@/ui/Toasts';
import type { AppStore } from './store';
import { theme } from './theme';

/** Everything a screen needs around it: the store, the theme and the toasts. */
export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      {/* noSsr: the kept mode is read before the first render, which shows the right scheme;
          a switch of scheme recolours the page at once, not through each transition. */}
      <ThemeProvider
        theme={theme}
        modeStorageKey={MODE_STORAGE_KEY}
        noSsr
        disableTransitionOnChange
      >
        <CssBaseline />
        <Toasts />
        {children}
      </ThemeProvider>
    </Provider>
  );
}
