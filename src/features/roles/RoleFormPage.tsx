import { Alert, Button, Paper, Stack } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { createRoleSchema } from '@common/schemas/roles';
import { useAppDispatch } from '@/lib/store';
import { PermissionGate } from '@/auth/PermissionGate';
import { FormTextField } from '@/components/FormTextField';
import { PageHeader } from '@/components/PageHeader';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { toastQueued } from '@/ui/ui.slice';
import { useCreateRoleMutation } from './roles.api';

/** The new role's form: its name. */
function RoleForm() {
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
    dispatch(toastQueued(`Added the role ${role.name}`, 'success'));
    void navigate('/roles');
  });

  return (
    <Paper component="section" sx={{ maxWidth: 480, p: 3 }}>
      <PageHeader title="Add Role" />
      <Stack component="form" spacing={2} onSubmit={save} noValidate aria-label="Add role">
        {form.failure && <Alert severity="error">{form.failure}</Alert>}
        <FormTextField
          control={form.control}
          name="name"
          label="Name"
          required
          autoFocus
          hint="Letters, digits, _ and -"
        />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={isLoading}>
            Add Role
          </Button>
          <Button onClick={() => void navigate('/roles')}>Cancel</Button>
        </Stack>
      </Stack>
    </Paper>
  );
}

/** `/role`: a new role, for a user who may add one (others are told so; nothing is sent). */
export function RoleFormPage() {
  return (
    <PermissionGate verb="POST" path="/api/roles" what="adding roles">
      <RoleForm />
    </PermissionGate>
  );
}
