import SaveIcon from '@mui/icons-material/Save';
import {
  Alert,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { useId, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { messages } from '@common/messages';
import { type SavedView, createViewSchema } from '@common/schemas/views';
import {
  undoViewDelete,
  useCreateViewMutation,
  useDeleteViewMutation,
  useListViewRolesQuery,
  useListViewsQuery,
  useUpdateViewMutation,
} from '@/api/views.api';
import { useCan } from '@/auth/useCan';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { viewKeyOf } from '@/lib/gridLayout';
import { useAppDispatch } from '@/lib/store';
import { toastQueued, undoOffered } from '@/ui/ui.slice';
import { ConfirmDialog } from './ConfirmDialog';
import { FormTextField } from './FormTextField';
import { undoable, useT } from '@/i18n/useT';

/** The view on screen as it is saved: the list's URL query, less its page. */
function currentQuery(params: URLSearchParams): string {
  const query = new URLSearchParams(params);
  query.delete('page');
  return query.toString();
}

const saveFormSchema = z.object({ name: createViewSchema.shape.name, roleId: z.string() });

/** "Save view": under a name, for me or (with the right) for a role; a taken name is replaced. */
function SaveViewDialog({
  grid,
  views,
  mayShare,
  shown,
  onClose,
}: {
  grid: string;
  views: SavedView[];
  mayShare: boolean;
  /** The saved view on screen, if any: saving again replaces it by default. */
  shown?: SavedView;
  onClose(): void;
}) {
  const t = useT();
  const titleId = useId();
  const [params] = useSearchParams();
  const dispatch = useAppDispatch();
  const roles = useListViewRolesQuery(undefined, { skip: !mayShare });
  const [createView, created] = useCreateViewMutation();
  const [updateView, updated] = useUpdateViewMutation();
  const form = useSchemaForm(saveFormSchema, {
    defaultValues: {
      name: shown?.name ?? '',
      roleId: (mayShare && shown?.role?._id) || '',
    },
    errorContext: messages.views.saveContext,
    codes: { NAME_TAKEN: { field: 'name' } },
  });
  const [name = '', roleId = ''] = useWatch({ control: form.control, name: ['name', 'roleId'] });
  const sameName = (view: SavedView, wanted: string, role: string) =>
    view.name === wanted.trim() && (role ? view.role?._id === role : view.mine && !view.role);
  const replaced = views.find((view) => sameName(view, name, roleId));

  const save = form.submit(async (values) => {
    const query = currentQuery(params);
    const existing = views.find((view) => sameName(view, values.name, values.roleId));
    const saved = existing
      ? await updateView({ view: existing, change: { query } }).unwrap()
      : await createView(
          values.roleId
            ? { grid, name: values.name, query, roleId: values.roleId }
            : { grid, name: values.name, query },
        ).unwrap();
    dispatch(toastQueued(t('views.saved', { name: saved.name }), 'success'));
    onClose();
  });

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <Stack component="form" onSubmit={save} noValidate aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{t('views.save')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {form.failure && <Alert severity="error">{form.failure}</Alert>}
            <FormTextField
              control={form.control}
              name="name"
              label={t('views.name')}
              required
              autoFocus
              hint={replaced ? t('views.replacesHint') : t('views.savesHint')}
            />
            {mayShare && (
              <Controller
                control={form.control}
                name="roleId"
                render={({ field }) => (
                  <TextField
                    select
                    label={t('views.for')}
                    {...field}
                    // "Only me" shows as the choice it is, not as an empty box.
                    slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                  >
                    <MenuItem value="">{t('views.onlyMe')}</MenuItem>
                    {(roles.data ?? []).map((role) => (
                      <MenuItem key={role._id} value={role._id}>
                        {t('views.everyoneIn', { role: role.name })}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="submit"
            variant="contained"
            disabled={created.isLoading || updated.isLoading}
          >
            {replaced ? t('views.replace') : t('common.save')}
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}

/**
 * The saved views of a list, as chips above its grid: a click shows the view (a step Back
 * returns from); the one on screen is marked; one's own views (and, with the right, a
 * role's) can be deleted. "Save view" keeps the view on screen.
 */
export function SavedViews({ grid }: { grid: string }) {
  const t = useT();
  const mayRead = useCan('GET', '/api/views');
  const mayKeep = useCan('POST', '/api/views');
  const mayShare = useCan('POST', '/api/role-views');
  const mayDeleteShared = useCan('DELETE', '/api/role-views/:id');
  const mayDeleteOwn = useCan('DELETE', '/api/views/:id');
  const { data: views = [] } = useListViewsQuery(grid, { skip: !mayRead });
  const [deleteView] = useDeleteViewMutation();
  const [params, setParams] = useSearchParams();
  const dispatch = useAppDispatch();
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<SavedView>();
  if (!mayRead) return null;

  const onScreen = viewKeyOf(params.toString());
  const shown = views.find((view) => viewKeyOf(view.query) === onScreen);
  const mayDelete = (view: SavedView) => (view.role ? mayDeleteShared : view.mine && mayDeleteOwn);

  async function remove(view: SavedView) {
    setDeleting(undefined);
    try {
      await deleteView(view).unwrap();
      const deleted = t('views.deleted', { name: view.name });
      const mayUndo = view.role ? mayShare : mayKeep;
      dispatch(
        mayUndo ? undoOffered(deleted, undoViewDelete(view)) : toastQueued(deleted, 'success'),
      );
    } catch {
      // The shared handler has said why (a toast).
    }
  }

  return (
    <Stack
      component="nav"
      aria-label={t('views.region')}
      direction="row"
      useFlexGap
      sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }}
    >
      {views.map((view) => {
        const current = view === shown;
        return (
          <Chip
            key={view._id}
            label={view.role ? `${view.name} · ${view.role.name}` : view.name}
            title={
              view.role ? t('views.sharedTitle', { role: view.role.name }) : t('views.ownTitle')
            }
            color={current ? 'primary' : 'default'}
            variant={current ? 'filled' : 'outlined'}
            aria-current={current ? 'true' : undefined}
            onClick={() => setParams(view.query)}
            onDelete={mayDelete(view) ? () => setDeleting(view) : undefined}
          />
        );
      })}
      {(mayKeep || mayShare) && (
        <Button size="small" startIcon={<SaveIcon />} onClick={() => setSaving(true)}>
          {t('views.save')}
        </Button>
      )}
      {saving && (
        <SaveViewDialog
          grid={grid}
          views={views}
          mayShare={mayShare}
          shown={shown}
          onClose={() => setSaving(false)}
        />
      )}
      <ConfirmDialog
        open={deleting !== undefined}
        title={t('views.deleteTitle')}
        message={undoable(
          deleting?.role
            ? t('views.deleteSharedQuestion', { name: deleting.name, role: deleting.role.name })
            : t('views.deleteQuestion', { name: deleting?.name ?? '' }),
          deleting?.role ? mayShare : mayKeep,
        )}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(undefined)}
      />
    </Stack>
  );
}
