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
import type { Role } from '@common/schemas/roles';
import { createUserSchema } from '@common/schemas/users';
import { useAppDispatch } from '@/lib/store';
import { PermissionGate } from '@/auth/PermissionGate';
import { FormTextField } from '@/components/FormTextField';
import { PageHeader } from '@/components/PageHeader';
import { type QueryLike, QueryState } from '@/components/QueryState';
import { useReportedError } from '@/hooks/useReportedError';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { useT } from '@/i18n/useT';
import { toastQueued } from '@/ui/ui.slice';
import { useCreateUserMutation } from './users.api';

/** The roles to choose from, through the shared loading, error and empty states. */
function RoleChoices({
  rolesQuery,
  value,
  onChange,
}: {
  rolesQuery: QueryLike<Role[]>;
  value: string[];
  onChange(ids: string[]): void;
}) {
  const t = useT();
  useReportedError(messages.roles.fetchContext, rolesQuery.error);
  return (
    <QueryState query={rolesQuery} what={t('roles.what')} empty={t('roles.none')}>
      {(roles) => (
        <FormGroup row>
          {roles.map((role) => (
            <FormControlLabel
              key={role._id}
              label={role.name}
              control={
                <Checkbox
                  checked={value.includes(role._id)}
                  onChange={(e) =>
                    onChange(
                      e.target.checked
                        ? [...value, role._id]
                        : value.filter((id) => id !== role._id),
                    )
                  }
                />
              }
            />
          ))}
        </FormGroup>
      )}
    </QueryState>
  );
}

/** The new user's form: a password and roles. */
function UserForm({ rolesQuery }: { rolesQuery: QueryLike<Role[]> }) {
  const t = useT();
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
    dispatch(toastQueued(t('users.added', { name: created.username }), 'success'));
    void navigate('/users');
  });

  return (
    <Paper component="section" sx={{ maxWidth: 560, p: 3 }}>
      <PageHeader title={t('users.add')} />
      <Stack
        component="form"
        spacing={2}
        onSubmit={save}
        noValidate
        aria-label={t('users.addForm')}
      >
        {form.failure && <Alert severity="error">{form.failure}</Alert>}
        <FormTextField
          control={form.control}
          name="username"
          label={t('users.fieldUsername')}
          required
          autoFocus
          autoComplete="off"
        />
        <FormTextField
          control={form.control}
          name="email"
          label={t('users.fieldEmail')}
          type="email"
          autoComplete="off"
        />
        <FormTextField
          control={form.control}
          name="password"
          label={t('users.fieldPassword')}
          type="password"
          required
          autoComplete="new-password"
        />
        <Controller
          control={form.control}
          name="roles"
          render={({ field, fieldState }) => (
            <FormControl component="fieldset" error={Boolean(fieldState.error)}>
              <FormLabel component="legend">{t('users.fieldRoles')}</FormLabel>
              {/* A user may be added without roles: a role that may not list them still can. */}
              <PermissionGate verb="GET" path="/api/roles" what={t('users.choosingRoles')}>
                <RoleChoices
                  rolesQuery={rolesQuery}
                  value={field.value ?? []}
                  onChange={field.onChange}
                />
              </PermissionGate>
              {fieldState.error && <FormHelperText>{fieldState.error.message}</FormHelperText>}
            </FormControl>
          )}
        />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={isLoading}>
            {t('users.add')}
          </Button>
          <Button onClick={() => void navigate('/users')}>{t('common.cancel')}</Button>
        </Stack>
      </Stack>
    </Paper>
  );
}

/**
 * `/users/add`: a new user, for a user who may add one (others are told so; nothing is
 * sent). The roles to choose from come from the roles feature (composed in app/).
 */
export function UserFormPage({ rolesQuery }: { rolesQuery: QueryLike<Role[]> }) {
  const t = useT();
  return (
    <PermissionGate verb="POST" path="/api/users" what={t('users.adding')}>
      <UserForm rolesQuery={rolesQuery} />
    </PermissionGate>
  );
}
