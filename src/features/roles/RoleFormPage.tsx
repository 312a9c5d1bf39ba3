import { Alert, Button, Paper, Stack, TextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { createRoleSchema } from '@common/schemas/roles';
import { errorMessage, reportError } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { PageHeader } from '@/components/PageHeader';
import { toastQueued } from '@/ui/ui.slice';
import { useCreateRoleMutation } from './roles.api';

/** `/role`: a new role, by name. */
export function RoleFormPage() {
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [createRole, { isLoading }] = useCreateRoleMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(undefined);
    const checked = createRoleSchema.safeParse({ name });
    setNameError(checked.error?.issues[0]?.message);
    if (!checked.success) return;
    try {
      const role = await createRole(checked.data).unwrap();
      dispatch(toastQueued(`Added the role ${role.name}`, 'success'));
      void navigate('/roles');
    } catch (error) {
      reportError(messages.roles.addContext, error);
      setFailure(errorMessage(error));
    }
  }

  return (
    <Paper component="section" sx={{ maxWidth: 480, p: 3 }}>
      <PageHeader title="Add Role" />
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Add role">
        {failure && <Alert severity="error">{failure}</Alert>}
        <TextField
          label="Name"
          name="name"
          required
          autoFocus
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={Boolean(nameError)}
          helperText={nameError ?? 'Letters, digits, _ and -'}
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
