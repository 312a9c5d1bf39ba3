import { Alert, Button, Paper, Stack } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { createRoleSchema } from '@common/schemas/roles';
import { useAppDispatch } from '@/lib/store';
import { PermissionGate } from '@/auth/PermissionGate';
import { FormTextField } from '@/components/FormTextField';
import { PageHeader } from '@/components/PageHeader';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { useT } from '@/i18n/useT';
import { toastQueued } from '@/ui/ui.slice';
import { useCreateRoleMutation } from './roles.api';

/** The new role's form: its name. */
function RoleForm() {
  const t = useT();
  const [createRole, { isLoading }] = useCreateRoleMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const form = useSchemaForm(createRoleSchema, {
    defaultValues: { name: '' },
    errorContext: messages.roles.addContext,
    codes: { NAME_TAKEN: { field: 'name' } },
  });

  const save = form.submit(async (input) => {
    const role = await createRole(input).unwrap();
    dispatch(toastQueued(t('roles.added', { name: role.name }), 'success'));
    void navigate('/roles');
  });

  return (
    <Paper component="section" sx={{ maxWidth: 480, p: 3 }}>
      <PageHeader title={t('roles.add')} />
      <Stack
        component="form"
        spacing={2}
        onSubmit={save}
        noValidate
        aria-label={t('roles.addForm')}
      >
        {form.failure && <Alert severity="error">{form.failure}</Alert>}
        <FormTextField
          control={form.control}
          name="name"
          label={t('roles.fieldName')}
          required
          autoFocus
          hint={t('roles.nameHint')}
        />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={isLoading}>
            {t('roles.add')}
          </Button>
          <Button onClick={() => void navigate('/roles')}>{t('common.cancel')}</Button>
        </Stack>
      </Stack>
    </Paper>
  );
}

/** `/role`: a new role, for a user who may add one (others are told so; nothing is sent). */
export function RoleFormPage() {
  const t = useT();
  return (
    <PermissionGate verb="POST" path="/api/roles" what={t('roles.adding')}>
      <RoleForm />
    </PermissionGate>
  );
}
