import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AppProviders } from './app/App';
import { appStarted } from './app/listeners';
import { createAppRouter } from './app/router';
import { makeAppStore } from './app/store';

const store = makeAppStore();
store.dispatch(appStarted());
const router = createAppRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders store={store}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
