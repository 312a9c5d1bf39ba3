import { Alert, Button, Divider, Stack, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import type { LoginResponse } from '@common/schemas/auth';
import {
  codeInputSchema,
  type SecondFactorStep as Step,
  type TotpEnrolment,
} from '@common/schemas/signIn';
import { errorCode, errorMessage } from '@/api/errors';
import { FormTextField } from '@/components/FormTextField';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { FORM_ALERT } from '@/lib/formErrors';
import { useBeginStepAuthenticatorMutation, useCompleteSecondFactorMutation } from './auth.api';
import { AuthenticatorSetup } from './AuthenticatorSetup';
import { passkeyFailure } from './passkey';
import { usePasskeySignIn } from './usePasskeySignIn';
import { useT } from '@/i18n/useT';

interface SecondFactorStepProps {
  step: Step['secondFactor'];
  /** Signed in: the session, and the recovery codes of an app set up in this step. */
  onSignedIn(session: LoginResponse, recoveryCodes?: string[]): void;
  /** Back to the password (the step expired, or the person chose to). */
  onRestart(): void;
}

/**
 * The sign-in's second step: an authenticator code or a recovery code, or a passkey. An
 * account that must have a second factor and has none sets up an authenticator app here.
 */
export function SecondFactorStep({ step, onSignedIn, onRestart }: SecondFactorStepProps) {
  const [complete, { isLoading }] = useCompleteSecondFactorMutation();
  const [beginSetup] = useBeginStepAuthenticatorMutation();
  const { signInWithPasskey, isBusy } = usePasskeySignIn();
  const [enrolment, setEnrolment] = useState<TotpEnrolment>();
  const [expired, setExpired] = useState(false);
  const t = useT();
  const form = useSchemaForm(codeInputSchema, {
    defaultValues: { code: '' },
    codes: {
      INVALID_SECOND_FACTOR: { field: 'code', message: t('auth.codeFailed') },
      SIGN_IN_EXPIRED: { message: t('auth.signInExpired') },
    },
  });
  const { setError } = form;
  // An account whose only second factor is a passkey has no code to type.
  const takesCode = step.enrol || step.methods.includes('totp');

  const started = useRef(false);
  useEffect(() => {
    if (!step.enrol || started.current) return;
    started.current = true;
    beginSetup(step.challenge)
      .unwrap()
      .then(setEnrolment)
      .catch((error: unknown) => {
        setExpired(true);
        setError(FORM_ALERT, { type: 'server', message: errorMessage(error) });
      });
  }, [step, beginSetup, setError]);

  const submit = form.submit(async ({ code }) => {
    try {
      const { recoveryCodes, ...session } = await complete({
        challenge: step.challenge,
        code,
      }).unwrap();
      onSignedIn(session, recoveryCodes);
    } catch (error) {
      if (errorCode(error) === 'SIGN_IN_EXPIRED') setExpired(true);
      throw error;
    }
  });

  async function signInWithAPasskey() {
    await form.attempt(async () => {
      try {
        onSignedIn(await signInWithPasskey(step.challenge));
      } catch (error) {
        if (errorCode(error) === 'SIGN_IN_EXPIRED') setExpired(true);
        throw passkeyFailure(error);
      }
    });
  }

  return (
    <Stack
      component="form"
      spacing={2}
      onSubmit={submit}
      noValidate
      aria-label={t('auth.secondStep')}
    >
      <Typography variant="h5" component="h2">
        {t('auth.secondStep')}
      </Typography>
      {form.failure && <Alert severity="error">{form.failure}</Alert>}
      {step.enrol ? (
        <>
          <Typography>{t('auth.enrolHelp')}</Typography>
          {enrolment && <AuthenticatorSetup enrolment={enrolment} />}
        </>
      ) : (
        <Typography>{takesCode ? t('auth.secondStepHelp') : t('auth.passkeyOnlyHelp')}</Typography>
      )}
      {!expired && (
        <>
          {takesCode && (
            <>
              <FormTextField
                control={form.control}
                name="code"
                label={t('auth.code')}
                autoComplete="one-time-code"
                inputMode="numeric"
                required
                autoFocus
              />
              <Button type="submit" variant="contained" disabled={isLoading}>
                {t('auth.verify')}
              </Button>
            </>
          )}
          {step.methods.includes('passkey') && (
            <>
              {takesCode && <Divider>{t('login.or')}</Divider>}
              <Button
                variant="outlined"
                onClick={() => void signInWithAPasskey()}
                disabled={isBusy}
              >
                {t('login.passkey')}
              </Button>
            </>
          )}
        </>
      )}
      <Button onClick={onRestart}>{t('auth.backToSignIn')}</Button>
    </Stack>
  );
}
