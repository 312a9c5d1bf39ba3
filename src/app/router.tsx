import { type ComponentType, lazy, type LazyExoticComponent } from 'react';
import { Route, Routes } from 'react-router-dom';
import { RequireAuth } from '@/auth/RequireAuth';
import { HomePage } from '@/features/home/HomePage';
import { loadScreenTexts } from '@/i18n/i18n';
import { loadChunk } from '@/lib/loadChunk';
import { AppShell } from './shell/AppShell';

/** A screen loaded as its own chunk when first shown, with the screens' texts. */
const page = (load: () => Promise<ComponentType>): LazyExoticComponent<ComponentType> =>
  lazy(async () => {
    const [Screen] = await Promise.all([loadChunk(load), loadScreenTexts()]);
    return { default: Screen };
  });

/**
 * A screen that talks to the API: its chunk and the API slice's load together, and it
 * renders once the slice is in the store.
 */
const apiScreen = (load: () => Promise<ComponentType>) =>
  page(async () => {
    const [{ ApiReady }, Screen] = await Promise.all([import('./ApiReady'), load()]);
    return function ApiScreen() {
      return (
        <ApiReady>
          <Screen />
        </ApiReady>
      );
    };
  });

/**
 * A screen for signed-in users only: a signed-out visitor goes to /login before anything
 * loads; a user with no role is told so above the screen (PrivateScreen).
 */
const privateScreen = (load: () => Promise<ComponentType>) => {
  const Screen = apiScreen(async () => {
    const [{ PrivateScreen }, Inner] = await Promise.all([import('@/auth/PrivateScreen'), load()]);
    return function Private() {
      return (
        <PrivateScreen>
          <Inner />
        </PrivateScreen>
      );
    };
  });
  return function GuardedScreen() {
    return (
      <RequireAuth>
        <Screen />
      </RequireAuth>
    );
  };
};

const MexicoPage = page(async () => (await import('@/features/mexico/MexicoPage')).MexicoPage);
const LoginPage = apiScreen(async () => (await import('@/auth/LoginPage')).LoginPage);
const RegisterPage = apiScreen(async () => (await import('@/auth/RegisterPage')).RegisterPage);
const ForgotPasswordPage = page(
  async () => (await import('@/auth/ForgotPasswordPage')).ForgotPasswordPage,
);
const GoogleCallbackPage = apiScreen(
  async () => (await import('@/auth/GoogleCallbackPage')).GoogleCallbackPage,
);
const NotFoundPage = page(async () => (await import('@/ui/NotFoundPage')).NotFoundPage);

const RoutesScreen = privateScreen(
  async () => (await import('./screens/RoutesScreen')).RoutesScreen,
);
const BooksPage = privateScreen(async () => (await import('@/features/books/BooksPage')).BooksPage);
const BookFormPage = privateScreen(
  async () => (await import('@/features/books/BookFormPage')).BookFormPage,
);
const BookEditPage = privateScreen(
  async () => (await import('@/features/books/BookEditPage')).BookEditPage,
);
const EntitiesPage = privateScreen(
  async () => (await import('@/features/entities/EntitiesPage')).EntitiesPage,
);
const AddEntityPage = privateScreen(
  async () => (await import('@/features/entities/EntityFormPage')).AddEntityPage,
);
const EditEntityPage = privateScreen(
  async () => (await import('@/features/entities/EntityFormPage')).EditEntityPage,
);
const EntityAccessScreen = privateScreen(
  async () => (await import('./screens/EntityAccessScreen')).EntityAccessScreen,
);
const RecordsScreen = privateScreen(
  async () => (await import('./screens/RecordsScreen')).RecordsScreen,
);
const JobsPage = privateScreen(async () => (await import('@/features/jobs/JobsPage')).JobsPage);
const UsersPage = privateScreen(async () => (await import('@/features/users/UsersPage')).UsersPage);
const UserFormScreen = privateScreen(
  async () => (await import('./screens/UserFormScreen')).UserFormScreen,
);
const AuditPage = privateScreen(async () => (await import('@/features/audit/AuditPage')).AuditPage);
const RolesPage = privateScreen(async () => (await import('@/features/roles/RolesPage')).RolesPage);
const RoleFormPage = privateScreen(
  async () => (await import('@/features/roles/RoleFormPage')).RoleFormPage,
);
const AccountPage = privateScreen(
  async () => (await import('@/features/account/AccountPage')).AccountPage,
);
const RoleUsersPage = privateScreen(
  async () => (await import('@/features/roles/RoleUsersPage')).RoleUsersPage,
);

/**
 * The route table, inside the shell. Every screen but the home page is a lazy chunk, so
 * the first page loads only what it shows; an unknown path gets the router's error page.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppShell />}>
        <Route index element={<HomePage />} />
        <Route path="mexico" element={<MexicoPage />} />
        <Route path="login" element={<LoginPage />} />
        <Route path="register" element={<RegisterPage />} />
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="google-callback" element={<GoogleCallbackPage />} />
        <Route path="routes" element={<RoutesScreen />} />
        <Route path="account" element={<AccountPage />} />
        <Route path="books" element={<BooksPage />} />
        <Route path="book" element={<BookFormPage />} />
        <Route path="book/:id/edit" element={<BookEditPage />} />
        <Route path="entities" element={<EntitiesPage />} />
        <Route path="entities/add" element={<AddEntityPage />} />
        <Route path="entities/edit/:entityId" element={<EditEntityPage />} />
        <Route path="entities/edit/:entityId/access" element={<EntityAccessScreen />} />
        <Route path="entities/:entityName" element={<RecordsScreen />} />
        <Route path="lims/jobs" element={<JobsPage />} />
        <Route path="users" element={<UsersPage />} />
        <Route path="users/add" element={<UserFormScreen />} />
        <Route path="roles" element={<RolesPage />} />
        <Route path="role" element={<RoleFormPage />} />
        <Route path="role/:id/edit" element={<RoleUsersPage />} />
        <Route path="audit" element={<AuditPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
