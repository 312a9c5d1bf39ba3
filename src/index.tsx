import './app/zod';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './app/App';
import { appStarted } from './app/listeners';
import { AppRoutes } from './app/router';
import { makeAppStore } from './app/store';

const store = makeAppStore();
store.dispatch(appStarted());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders store={store}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
