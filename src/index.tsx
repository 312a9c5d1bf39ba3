import './app/zod';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './app/App';
import { appStarted } from './lib/store';
import { AppRoutes } from './app/router';
import { makeAppStore } from './app/store';
import { applyLocale, loadLocale, startLocale } from './i18n/i18n';

const locale = startLocale();
// The first screen renders in its language: the catalogue's chunk loads first. (A promise,
// not a top-level await, which would bring webpack's async-module runtime to every page.)
// A catalogue that cannot be fetched (after its retries) still lets the page render.
void loadLocale(locale)
  .catch(() => undefined)
  .then(() => {
    applyLocale(locale);
    const store = makeAppStore(locale);
    store.dispatch(appStarted());

    // A transition lets React render the first screen in slices between the browser's other
    // work, instead of one long task that keeps a slow phone from answering a tap.
    startTransition(() => {
      createRoot(document.getElementById('root')!).render(
        <StrictMode>
          <AppProviders store={store}>
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
          </AppProviders>
        </StrictMode>,
      );
    });
  });
