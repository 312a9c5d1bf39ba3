import { Alert, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { passwordSchema } from '@common/schemas/auth';
import { errorMessage, reportError } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { useRegisterMutation } from './auth.api';
import { loggedIn } from './auth.slice';

/** `/register`: an account from an email and a password, signed in at once. */
export function RegisterPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [register, { isLoading }] = useRegisterMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  const passwordIssue = passwordSchema.safeParse(password).error?.issues[0]?.message;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (passwordIssue) return;
    setFailure(undefined);
    try {
      const { jwt, refreshToken } = await register({ email, password }).unwrap();
      dispatch(loggedIn({ accessToken: jwt, refreshToken }));
      void navigate('/', { replace: true });
    } catch (error) {
      reportError(messages.auth.registerContext, error);
      setFailure(errorMessage(error));
    }
  }

  return (
    <Paper component="section" sx={{ maxWidth: 420, mx: 'auto', p: 3 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Register
      </Typography>
      <Stack component="form" spacing={2} onSubmit={submit} aria-label="Register">
        {failure && <Alert severity="error">{failure}</Alert>}
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
          autoFocus
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
          error={touched && Boolean(passwordIssue)}
          helperText={
            touched && passwordIssue ? `Password ${passwordIssue}` : '8 to 128 characters'
          }
        />
        <Button type="submit" variant="contained" disabled={isLoading}>
          Register
        </Button>
      </Stack>
    </Paper>
  );
}
