import { Alert, Button, Paper, Stack, TextField } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { createRoleSchema } from '@common/schemas/roles';
import { useAppDispatch } from '@/app/hooks';
import { PageHeader } from '@/components/PageHeader';
import { useCreateForm } from '@/hooks/useCreateForm';
import { toastQueued } from '@/ui/ui.slice';
import { useCreateRoleMutation } from './roles.api';

/** `/role`: a new role, by name. */
export function RoleFormPage() {
  const [createRole, { isLoading }] = useCreateRoleMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { field, fieldErrors, failure, submit } = useCreateForm({
    initial: { name: '' },
    schema: createRoleSchema,
    send: async (input) => {
      const role = await createRole(input).unwrap();
      dispatch(toastQueued(`Added the role ${role.name}`, 'success'));
      void navigate('/roles');
    },
    errorContext: messages.roles.addContext,
  });

  return (
    <Paper component="section" sx={{ maxWidth: 480, p: 3 }}>
      <PageHeader title="Add Role" />
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Add role">
        {failure && <Alert severity="error">{failure}</Alert>}
        <TextField
          label="Name"
          required
          autoFocus
          {...field('name')}
          helperText={fieldErrors.name ?? 'Letters, digits, _ and -'}
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
