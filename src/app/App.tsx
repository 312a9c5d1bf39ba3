import { CssBaseline, ThemeProvider } from '@mui/material';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { useAppSelector } from '@/lib/store';
import { selectLocale } from '@/ui/ui.slice';
import { MODE_STORAGE_KEY } from '@common/colorScheme';
import { Toasts } from '@/ui/Toasts';
import type { AppStore } from './store';
import { themeFor } from './theme';

/** Everything a screen needs around it: the store, the theme and the toasts. */
export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <Themed>{children}</Themed>
    </Provider>
  );
}

/** The theme, in the language in effect (MUI's own texts), and the toasts. */
function Themed({ children }: { children: ReactNode }) {
  const locale = useAppSelector(selectLocale);
  return (
    // noSsr: the kept mode is read before the first render, which shows the right scheme;
    // a switch of scheme recolours the page at once, not through each transition.
    <ThemeProvider
      theme={themeFor(locale)}
      modeStorageKey={MODE_STORAGE_KEY}
      noSsr
      disableTransitionOnChange
    >
      <CssBaseline />
      <Toasts />
      {children}
    </ThemeProvider>
  );
}
