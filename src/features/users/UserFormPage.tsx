import {
  Alert,
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Paper,
  Stack,
} from '@mui/material';
import { Controller } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { createUserSchema } from '@common/schemas/users';
import { useListRolesQuery } from '@/api/roles.api';
import { useAppDispatch } from '@/app/hooks';
import { FormTextField } from '@/components/FormTextField';
import { PageHeader } from '@/components/PageHeader';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { toastQueued } from '@/ui/ui.slice';
import { useCreateUserMutation } from './users.api';

/** `/users/add`: a new user with a password and roles. */
export function UserFormPage() {
  const { data: roles = [] } = useListRolesQuery();
  const [createUser, { isLoading }] = useCreateUserMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const form = useSchemaForm(createUserSchema, {
    defaultValues: { username: '', email: '', password: '', roles: [] },
    errorContext: messages.users.addContext,
    codes: { USERNAME_TAKEN: { field: 'username' }, EMAIL_TAKEN: { field: 'email' } },
  });

  const save = form.submit(async (input) => {
    const created = await createUser(input).unwrap();
    dispatch(toastQueued(`Added ${created.username}`, 'success'));
    void navigate('/users');
  });

  return (
    <Paper component="section" sx={{ maxWidth: 560, p: 3 }}>
      <PageHeader title="Add User" />
      <Stack component="form" spacing={2} onSubmit={save} noValidate aria-label="Add user">
        {form.failure && <Alert severity="error">{form.failure}</Alert>}
        <FormTextField
          control={form.control}
          name="username"
          label="Username"
          required
          autoFocus
          autoComplete="off"
        />
        <FormTextField
          control={form.control}
          name="email"
          label="Email"
          type="email"
          autoComplete="off"
        />
        <FormTextField
          control={form.control}
          name="password"
          label="Password"
          type="password"
          required
          autoComplete="new-password"
        />
        <Controller
          control={form.control}
          name="roles"
          render={({ field, fieldState }) => (
            <FormControl component="fieldset" error={Boolean(fieldState.error)}>
              <FormLabel component="legend">Roles</FormLabel>
              <FormGroup row>
                {roles.map((role) => {
                  const chosen = field.value ?? [];
                  return (
                    <FormControlLabel
                      key={role._id}
                      label={role.name}
                      control={
                        <Checkbox
                          checked={chosen.includes(role._id)}
                          onChange={(e) =>
                            field.onChange(
                              e.target.checked
                                ? [...chosen, role._id]
                                : chosen.filter((id) => id !== role._id),
                            )
                          }
                        />
                      }
                    />
                  );
                })}
              </FormGroup>
              {fieldState.error && <FormHelperText>{fieldState.error.message}</FormHelperText>}
            </FormControl>
          )}
        />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={isLoading}>
            Add User
          </Button>
          <Button onClick={() => void navigate('/users')}>Cancel</Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
