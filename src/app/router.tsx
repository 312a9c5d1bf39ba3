import { LinearProgress } from '@mui/material';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { HomePage } from '@/features/home/HomePage';
import { AppShell } from '@/ui/AppShell';
import { ErrorPage } from '@/ui/ErrorPage';

/**
 * The route table. Every screen but the home page is a lazy chunk, so the first page
 * loads only what it shows.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppShell />,
    errorElement: <ErrorPage />,
    // Shown while the first screen's lazy chunk loads.
    hydrateFallbackElement: (
      <AppShell>
        <LinearProgress aria-label="Loading" />
      </AppShell>
    ),
    children: [
      { index: true, element: <HomePage /> },
      {
        path: 'mexico',
        lazy: async () => ({
          Component: (await import('@/features/mexico/MexicoPage')).MexicoPage,
        }),
      },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
