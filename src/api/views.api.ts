import { z } from 'zod';
import { type RoleRef, roleRefSchema } from '@common/schemas/roles';
import {
  type CreateRoleViewInput,
  type CreateViewInput,
  type SavedView,
  type UpdateViewInput,
  savedViewSchema,
} from '@common/schemas/views';
import { api } from './api';
import { responseSchema } from './responseSchema';
import type { UndoRequest } from './undo';

const viewsOf = (grid: string) => ({ type: 'View', id: `LIST:${grid}` }) as const;

/**
 * Saved views, which every list's toolbar offers (so they live here, beside the other
 * tools of the lists, rather than in a feature).
 */
const viewsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The views of a list the user sees: their own, then their roles'. */
    listViews: build.query<SavedView[], string>({
      query: (grid) => ({ url: '/api/views', params: { grid } }),
      providesTags: (_result, _error, grid) => [viewsOf(grid)],
      ...responseSchema(z.array(savedViewSchema)),
    }),
    /** The roles a view can be saved for (asked only of those who may). */
    listViewRoles: build.query<RoleRef[], void>({
      query: () => '/api/roles',
      providesTags: [{ type: 'Role', id: 'LIST' }],
      ...responseSchema(z.array(roleRefSchema)),
    }),
    createView: build.mutation<SavedView, CreateViewInput | CreateRoleViewInput>({
      query: (body) => ({
        url: 'roleId' in body ? '/api/role-views' : '/api/views',
        method: 'POST',
        body,
      }),
      extraOptions: { shownInForm: true },
      invalidatesTags: (_result, error, { grid }) => (error ? [] : [viewsOf(grid)]),
      ...responseSchema(savedViewSchema),
    }),
    updateView: build.mutation<SavedView, { view: SavedView; change: UpdateViewInput }>({
      query: ({ view, change }) => ({
        url: `/api/${view.role ? 'role-views' : 'views'}/${view._id}`,
        method: 'PUT',
        body: change,
      }),
      extraOptions: { shownInForm: true },
      invalidatesTags: (_result, error, { view }) => (error ? [] : [viewsOf(view.grid)]),
      ...responseSchema(savedViewSchema),
    }),
    deleteView: build.mutation<void, SavedView>({
      query: (view) => ({
        url: `/api/${view.role ? 'role-views' : 'views'}/${view._id}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, _error, view) => [viewsOf(view.grid)],
    }),
  }),
});

export const {
  useListViewsQuery,
  useListViewRolesQuery,
  useCreateViewMutation,
  useUpdateViewMutation,
  useDeleteViewMutation,
} = viewsApi;

/** The Undo of a view's delete: the same view saved again (views keep no history). */
export const undoViewDelete = ({ grid, name, query, role }: SavedView): UndoRequest => ({
  url: role ? '/api/role-views' : '/api/views',
  body: role ? { grid, name, query, roleId: role._id } : { grid, name, query },
  invalidates: [viewsOf(grid)],
});
