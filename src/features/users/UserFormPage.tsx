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
  TextField,
} from '@mui/material';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { createUserSchema } from '@common/schemas/users';

import { useListRolesQuery } from '@/api/roles.api';
import { useAppDispatch } from '@/app/hooks';
import { PageHeader } from '@/components/PageHeader';
import { useCreateForm } from '@/hooks/useCreateForm';
import { toastQueued } from '@/ui/ui.slice';
import { useCreateUserMutation } from './users.api';

/** `/users/add`: a new user with a password and roles. */
export function UserFormPage() {
  const [roleIds, setRoleIds] = useState<string[]>([]);
  const { data: roles = [] } = useListRolesQuery();
  const [createUser, { isLoading }] = useCreateUserMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { field, fieldErrors, failure, submit } = useCreateForm({
    initial: { username: '', email: '', password: '' },
    schema: createUserSchema,
    toInput: (values) => ({ ...values, roles: roleIds }),
    send: async (input) => {
      const created = await createUser(input).unwrap();
      dispatch(toastQueued(`Added ${created.username}`, 'success'));
      void navigate('/users');
    },
    errorContext: messages.users.addContext,
  });

  return (
    <Paper component="section" sx={{ maxWidth: 560, p: 3 }}>
      <PageHeader title="Add User" />
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Add user">
        {failure && <Alert severity="error">{failure}</Alert>}
        <TextField label="Username" required autoFocus autoComplete="off" {...field('username')} />
        <TextField label="Email" type="email" autoComplete="off" {...field('email')} />
        <TextField
          label="Password"
          type="password"
          required
          autoComplete="new-password"
          {...field('password')}
        />
        <FormControl component="fieldset">
          <FormLabel component="legend">Roles</FormLabel>
          <FormGroup row>
            {roles.map((role) => (
              <FormControlLabel
                key={role._id}
                label={role.name}
                control={
                  <Checkbox
                    checked={roleIds.includes(role._id)}
                    onChange={(e) =>
                      setRoleIds((ids) =>
                        e.target.checked ? [...ids, role._id] : ids.filter((id) => id !== role._id),
                      )
                    }
                  />
                }
              />
            ))}
          </FormGroup>
          {fieldErrors.roles && <FormHelperText error>{fieldErrors.roles}</FormHelperText>}
        </FormControl>
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
