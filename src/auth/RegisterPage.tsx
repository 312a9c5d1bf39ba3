import { Alert, Button, Paper, Stack, Typography } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { registerSchema } from '@common/schemas/auth';
import { useAppDispatch } from '@/lib/store';
import { FormTextField } from '@/components/FormTextField';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { useRegisterMutation } from './auth.api';
import { loggedIn } from './auth.slice';

/** `/register`: an account from an email and a password, signed in at once. */
export function RegisterPage() {
  const [register, { isLoading }] = useRegisterMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const form = useSchemaForm(registerSchema, {
    defaultValues: { email: '', password: '' },
    errorContext: messages.auth.registerContext,
    codes: { EMAIL_TAKEN: { field: 'email' } },
  });

  const submit = form.submit(async (account) => {
    const { jwt, refreshToken } = await register(account).unwrap();
    dispatch(loggedIn({ accessToken: jwt, refreshToken }));
    void navigate('/', { replace: true });
  });

  return (
    <Paper component="section" sx={{ maxWidth: 420, mx: 'auto', p: 3 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Register
      </Typography>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Register">
        {form.failure && <Alert severity="error">{form.failure}</Alert>}
        <FormTextField
          control={form.control}
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          required
          autoFocus
        />
        <FormTextField
          control={form.control}
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          hint="8 to 128 characters"
        />
        <Button type="submit" variant="contained" disabled={isLoading}>
          Register
        </Button>
      </Stack>
    </Paper>
  );
}
