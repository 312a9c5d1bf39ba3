import { Alert, Box, Button, Divider, Link, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { type LoginResponse, loginSchema } from '@common/schemas/auth';
import { type SecondFactorStep as Step, secondFactorStepSchema } from '@common/schemas/signIn';
import { errorMessage, reportError } from '@/api/errors';
import { useAppDispatch } from '@/lib/store';
import { FormTextField } from '@/components/FormTextField';
import { FORM_ALERT } from '@/lib/formErrors';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { useGetGoogleUrlMutation, useLoginMutation } from './auth.api';
import { loggedIn } from './auth.slice';
import { passkeyFailure, passkeysSupported } from './passkey';
import { RecoveryCodes } from './RecoveryCodes';
import { returnPath } from './RequireAuth';
import { SecondFactorStep } from './SecondFactorStep';
import { usePasskeySignIn } from './usePasskeySignIn';
import { useT } from '@/i18n/useT';

/**
 * The second step Google sign-in sent the browser back with (in the fragment, which no
 * server sees), if any.
 */
function stepInFragment(hash: string): Step['secondFactor'] | undefined {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const parsed = secondFactorStepSchema.safeParse({
    secondFactor: {
      challenge: fragment.get('challenge'),
      methods: fragment.get('methods')?.split(',').filter(Boolean) ?? [],
      enrol: fragment.get('enrol') === 'true',
      expiresAt: fragment.get('expiresAt'),
    },
  });
  return parsed.success ? parsed.data.secondFactor : undefined;
}

/**
 * `/login`: username and password, Forgot Password?, Register, Google, and a passkey; then,
 * for an account with a second factor, its second step.
 */
export function LoginPage() {
  const [login, { isLoading }] = useLoginMutation();
  const [getGoogleUrl, { isLoading: isGoogleLoading }] = useGetGoogleUrlMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const t = useT();

  const form = useSchemaForm(loginSchema, {
    defaultValues: { username: '', password: '' },
    // Wrong credentials get the spec's sentence; anything else (RATE_LIMITED: too many
    // attempts, try again in N s) the server's own, in the form's alert.
    codes: { INVALID_CREDENTIALS: { message: t('login.failed') } },
  });

  const [step, setStep] = useState(() => stepInFragment(location.hash));
  const [recoveryCodes, setRecoveryCodes] = useState<{ codes: string[]; session: LoginResponse }>();
  const { signInWithPasskey, isBusy: isPasskeyBusy } = usePasskeySignIn();

  const signedIn = ({ jwt, refreshToken }: LoginResponse) => {
    dispatch(loggedIn({ accessToken: jwt, refreshToken }));
    void navigate(returnPath(location.state), { replace: true });
  };

  const submit = form.submit(async (credentials) => {
    const answer = await login(credentials).unwrap();
    if ('secondFactor' in answer) setStep(answer.secondFactor);
    else signedIn(answer);
  });

  async function signInWithAPasskey() {
    await form.attempt(async () => {
      try {
        signedIn(await signInWithPasskey());
      } catch (error) {
        throw passkeyFailure(error);
      }
    });
  }

  async function signInWithGoogle() {
    try {
      const { url } = await getGoogleUrl().unwrap();
      window.location.assign(url);
    } catch (error) {
      reportError(messages.auth.googleContext, error);
      form.setError(FORM_ALERT, { type: 'server', message: errorMessage(error) });
    }
  }

  if (recoveryCodes || step)
    return (
      <Paper component="section" sx={{ maxWidth: 420, mx: 'auto', p: 3 }}>
        <Typography variant="h4" component="h1" gutterBottom>
          {t('login.title')}
        </Typography>
        {recoveryCodes ? (
          <RecoveryCodes
            codes={recoveryCodes.codes}
            onDone={() => signedIn(recoveryCodes.session)}
          />
        ) : (
          <SecondFactorStep
            step={step!}
            onSignedIn={(session, codes) =>
              codes ? setRecoveryCodes({ codes, session }) : signedIn(session)
            }
            onRestart={() => {
              setStep(undefined);
              if (location.hash) void navigate('/login', { replace: true, state: location.state });
            }}
          />
        )}
      </Paper>
    );

  return (
    <Paper component="section" sx={{ maxWidth: 420, mx: 'auto', p: 3 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('login.title')}
      </Typography>
      <Stack
        component="form"
        spacing={2}
        onSubmit={submit}
        noValidate
        aria-label={t('login.title')}
      >
        {form.failure && <Alert severity="error">{form.failure}</Alert>}
        <FormTextField
          control={form.control}
          name="username"
          label={t('login.username')}
          autoComplete="username"
          required
          autoFocus
        />
        <FormTextField
          control={form.control}
          name="password"
          label={t('login.password')}
          type="password"
          autoComplete="current-password"
          required
        />
        <Button type="submit" variant="contained" disabled={isLoading}>
          {t('login.submit')}
        </Button>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
          <Link component={RouterLink} to="/forgot-password">
            {t('login.forgot')}
          </Link>
          <Button component={RouterLink} to="/register">
            {t('login.register')}
          </Button>
        </Box>
        <Divider>{t('login.or')}</Divider>
        <Button variant="outlined" onClick={signInWithGoogle} disabled={isGoogleLoading}>
          {t('login.google')}
        </Button>
        {passkeysSupported() && (
          <Button
            variant="outlined"
            onClick={() => void signInWithAPasskey()}
            disabled={isPasskeyBusy}
          >
            {t('login.passkey')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
