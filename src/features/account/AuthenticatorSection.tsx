import { Alert, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { messages } from '@common/messages';
import { codeInputSchema, type Factors, type TotpEnrolment } from '@common/schemas/signIn';
import { AuthenticatorSetup } from '@/auth/AuthenticatorSetup';
import { RecoveryCodes } from '@/auth/RecoveryCodes';
import { FormTextField } from '@/components/FormTextField';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { useAppDispatch } from '@/lib/store';
import { toastQueued } from '@/ui/ui.slice';
import {
  useBeginAuthenticatorMutation,
  useConfirmAuthenticatorMutation,
  useDisableAuthenticatorMutation,
  useRenewRecoveryCodesMutation,
} from './account.api';
import { useT } from '@/i18n/useT';

/** A code form: the authenticator's code (or a recovery code) that a change asks for. */
function useCodeForm() {
  const t = useT();
  return useSchemaForm(codeInputSchema, {
    defaultValues: { code: '' },
    errorContext: messages.account.authenticatorContext,
    codes: { INVALID_SECOND_FACTOR: { field: 'code', message: t('auth.codeFailed') } },
  });
}

/** The authenticator app: set it up (QR code, then a code), or renew its codes, or turn it off. */
export function AuthenticatorSection({
  factors,
  onStale,
}: {
  factors: Factors;
  /** A code was refused: the factors may have changed meanwhile (in another window). */
  onStale(): void;
}) {
  const dispatch = useAppDispatch();
  const t = useT();
  const [begin, { isLoading: isStarting }] = useBeginAuthenticatorMutation();
  const [confirm, { isLoading: isConfirming }] = useConfirmAuthenticatorMutation();
  const [disable, { isLoading: isDisabling }] = useDisableAuthenticatorMutation();
  const [renew, { isLoading: isRenewing }] = useRenewRecoveryCodesMutation();
  const [enrolment, setEnrolment] = useState<TotpEnrolment>();
  const [codes, setCodes] = useState<string[]>();
  const form = useCodeForm();
  const refused = (error: unknown): never => {
    onStale();
    throw error;
  };

  if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(undefined)} />;

  if (!factors.totp && !enrolment)
    return (
      <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Typography>
          {factors.passkeys.length > 0 ? t('account.offWithPasskey') : t('account.off')}
        </Typography>
        <Button
          variant="contained"
          disabled={isStarting}
          onClick={() => void form.attempt(async () => setEnrolment(await begin().unwrap()))}
        >
          {t('account.setUp')}
        </Button>
        {form.failure && <Alert severity="error">{form.failure}</Alert>}
      </Stack>
    );

  if (enrolment)
    return (
      <Stack
        component="form"
        spacing={2}
        noValidate
        aria-label={t('account.setUp')}
        onSubmit={form.submit(async ({ code }) => {
          const { recoveryCodes } = await confirm(code).unwrap();
          setEnrolment(undefined);
          form.reset();
          setCodes(recoveryCodes);
          dispatch(toastQueued(t('account.authenticatorOn'), 'success'));
        })}
      >
        <Typography>{t('account.scan')}</Typography>
        <AuthenticatorSetup enrolment={enrolment} />
        {form.failure && <Alert severity="error">{form.failure}</Alert>}
        <FormTextField
          control={form.control}
          name="code"
          label={t('auth.code')}
          autoComplete="one-time-code"
          inputMode="numeric"
          required
        />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={isConfirming}>
            {t('account.turnOn')}
          </Button>
          <Button onClick={() => setEnrolment(undefined)}>{t('common.cancel')}</Button>
        </Stack>
      </Stack>
    );

  return (
    // Two actions, neither the default: Enter in the code sends nothing.
    <Stack
      component="form"
      spacing={2}
      noValidate
      aria-label={t('account.change')}
      onSubmit={(event) => event.preventDefault()}
    >
      <Typography>{t('account.on', { count: factors.recoveryCodesLeft })}</Typography>
      {form.failure && <Alert severity="error">{form.failure}</Alert>}
      <FormTextField
        control={form.control}
        name="code"
        label={t('auth.code')}
        hint={t('account.codeHint')}
        autoComplete="one-time-code"
      />
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          disabled={isRenewing}
          onClick={form.submit(async ({ code }) => {
            const { recoveryCodes } = await renew(code).unwrap().catch(refused);
            form.reset();
            setCodes(recoveryCodes);
          })}
        >
          {t('account.newCodes')}
        </Button>
        <Button
          color="error"
          // A role requires a second factor, and this is the only one.
          disabled={isDisabling || (factors.required && factors.passkeys.length === 0)}
          onClick={form.submit(async ({ code }) => {
            await disable(code).unwrap().catch(refused);
            form.reset();
            dispatch(toastQueued(t('account.authenticatorOff'), 'success'));
          })}
        >
          {t('account.turnOff')}
        </Button>
      </Stack>
    </Stack>
  );
}
