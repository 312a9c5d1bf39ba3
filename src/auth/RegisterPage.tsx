import { Alert, Button, Paper, Stack, Typography } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { registerSchema } from '@common/schemas/auth';
import { useAppDispatch } from '@/lib/store';
import { FormTextField } from '@/components/FormTextField';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { useRegisterMutation } from './auth.api';
import { loggedIn } from './auth.slice';
import { useT } from '@/i18n/useT';

/** `/register`: an account from an email and a password, signed in at once. */
export function RegisterPage() {
  const [register, { isLoading }] = useRegisterMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const t = useT();
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
        {t('auth.registerTitle')}
      </Typography>
      <Stack
        component="form"
        spacing={2}
        onSubmit={submit}
        noValidate
        aria-label={t('auth.registerTitle')}
      >
        {form.failure && <Alert severity="error">{form.failure}</Alert>}
        <FormTextField
          control={form.control}
          name="email"
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          required
          autoFocus
        />
        <FormTextField
          control={form.control}
          name="password"
          label={t('login.password')}
          type="password"
          autoComplete="new-password"
          required
          hint={t('auth.passwordHint')}
        />
        <Button type="submit" variant="contained" disabled={isLoading}>
          {t('auth.registerSubmit')}
        </Button>
      </Stack>
    </Paper>
  );
}
