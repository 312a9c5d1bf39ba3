import { Alert, Box, Button, Divider, Link, Paper, Stack, Typography } from '@mui/material';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { loginSchema } from '@common/schemas/auth';
import { errorMessage, reportError } from '@/api/errors';
import { useAppDispatch } from '@/lib/store';
import { FormTextField } from '@/components/FormTextField';
import { FORM_ALERT } from '@/lib/formErrors';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { useGetGoogleUrlMutation, useLoginMutation } from './auth.api';
import { loggedIn } from './auth.slice';
import { returnPath } from './RequireAuth';

/** `/login`: username and password, Forgot Password?, Register, and Google. */
export function LoginPage() {
  const [login, { isLoading }] = useLoginMutation();
  const [getGoogleUrl, { isLoading: isGoogleLoading }] = useGetGoogleUrlMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();

  const form = useSchemaForm(loginSchema, {
    defaultValues: { username: '', password: '' },
    // Wrong credentials get the spec's sentence; anything else (RATE_LIMITED: too many
    // attempts, try again in N s) the server's own, in the form's alert.
    codes: { INVALID_CREDENTIALS: { message: messages.auth.loginFailed } },
  });

  const submit = form.submit(async (credentials) => {
    const { jwt, refreshToken } = await login(credentials).unwrap();
    dispatch(loggedIn({ accessToken: jwt, refreshToken }));
    void navigate(returnPath(location.state), { replace: true });
  });

  async function signInWithGoogle() {
    try {
      const { url } = await getGoogleUrl().unwrap();
      window.location.assign(url);
    } catch (error) {
      reportError(messages.auth.googleContext, error);
      form.setError(FORM_ALERT, { type: 'server', message: errorMessage(error) });
    }
  }

  return (
    <Paper component="section" sx={{ maxWidth: 420, mx: 'auto', p: 3 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Login
      </Typography>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Login">
        {form.failure && <Alert severity="error">{form.failure}</Alert>}
        <FormTextField
          control={form.control}
          name="username"
          label="Username"
          autoComplete="username"
          required
          autoFocus
        />
        <FormTextField
          control={form.control}
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
        />
        <Button type="submit" variant="contained" disabled={isLoading}>
          Login
        </Button>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
          <Link component={RouterLink} to="/forgot-password">
            Forgot Password?
          </Link>
          <Button component={RouterLink} to="/register">
            Register
          </Button>
        </Box>
        <Divider>or</Divider>
        <Button variant="outlined" onClick={signInWithGoogle} disabled={isGoogleLoading}>
          Sign in with Google
        </Button>
      </Stack>
    </Paper>
  );
}
