import {
  Alert,
  Box,
  Button,
  Divider,
  Link,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { errorCode, errorMessage, reportError } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { useGetGoogleUrlMutation, useLoginMutation } from './auth.api';
import { loggedIn } from './auth.slice';
import { returnPath } from './RequireAuth';

/** `/login`: username and password, Forgot Password?, Register, and Google. */
export function LoginPage() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState<string>();
  const [login, { isLoading }] = useLoginMutation();
  const [getGoogleUrl, { isLoading: isGoogleLoading }] = useGetGoogleUrlMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(undefined);
    try {
      const { jwt, refreshToken } = await login({ username, password }).unwrap();
      dispatch(loggedIn({ accessToken: jwt, refreshToken }));
      void navigate(returnPath(location.state), { replace: true });
    } catch (error) {
      // Wrong credentials get the spec's sentence; anything else (too many attempts) its own.
      setFailure(
        errorCode(error) === 'INVALID_CREDENTIALS'
          ? messages.auth.loginFailed
          : errorMessage(error),
      );
    }
  }

  async function signInWithGoogle() {
    try {
      const { url } = await getGoogleUrl().unwrap();
      window.location.assign(url);
    } catch (error) {
      reportError(messages.auth.googleContext, error);
      setFailure(errorMessage(error));
    }
  }

  return (
    <Paper component="section" sx={{ maxWidth: 420, mx: 'auto', p: 3 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Login
      </Typography>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Login">
        {failure && <Alert severity="error">{failure}</Alert>}
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          required
          autoFocus
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
        <Button type="submit" variant="contained" disabled={isLoading || !username || !password}>
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
