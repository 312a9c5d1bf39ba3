import { LinearProgress } from '@mui/material';
import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { RequireAuth } from '@/auth/RequireAuth';
import { HomePage } from '@/features/home/HomePage';
import { AppShell } from '@/ui/AppShell';
import { ErrorPage } from '@/ui/ErrorPage';

/** A screen for signed-in users only, loaded as its own chunk. */
function privateRoute(path: string, load: () => Promise<ComponentType>): RouteObject {
  return {
    path,
    lazy: async () => {
      const Screen = await load();
      return {
        Component: () => (
          <RequireAuth>
            <Screen />
          </RequireAuth>
        ),
      };
    },
  };
}

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
      {
        path: 'login',
        lazy: async () => ({ Component: (await import('@/auth/LoginPage')).LoginPage }),
      },
      {
        path: 'register',
        lazy: async () => ({ Component: (await import('@/auth/RegisterPage')).RegisterPage }),
      },
      {
        path: 'forgot-password',
        lazy: async () => ({
          Component: (await import('@/auth/ForgotPasswordPage')).ForgotPasswordPage,
        }),
      },
      {
        path: 'google-callback',
        lazy: async () => ({
          Component: (await import('@/auth/GoogleCallbackPage')).GoogleCallbackPage,
        }),
      },
      privateRoute(
        'routes',
        async () => (await import('@/features/permissions/RoutesPage')).RoutesPage,
      ),
      privateRoute('books', async () => (await import('@/features/books/BooksPage')).BooksPage),
      privateRoute(
        'book',
        async () => (await import('@/features/books/BookFormPage')).BookFormPage,
      ),
      privateRoute(
        'entities',
        async () => (await import('@/features/entities/EntitiesPage')).EntitiesPage,
      ),
      privateRoute(
        'entities/add',
        async () => (await import('@/features/entities/EntityFormPage')).AddEntityPage,
      ),
      privateRoute(
        'entities/edit/:entityId',
        async () => (await import('@/features/entities/EntityFormPage')).EditEntityPage,
      ),
      privateRoute(
        'entities/:entityName',
        async () => (await import('@/features/records/RecordsPage')).RecordsPage,
      ),
      privateRoute('lims/jobs', async () => (await import('@/features/jobs/JobsPage')).JobsPage),
      privateRoute('users', async () => (await import('@/features/users/UsersPage')).UsersPage),
      privateRoute(
        'users/add',
        async () => (await import('@/features/users/UserFormPage')).UserFormPage,
      ),
      privateRoute('roles', async () => (await import('@/features/roles/RolesPage')).RolesPage),
      privateRoute(
        'role',
        async () => (await import('@/features/roles/RoleFormPage')).RoleFormPage,
      ),
      privateRoute(
        'role/:id/edit',
        async () => (await import('@/features/roles/RoleUsersPage')).RoleUsersPage,
      ),
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
