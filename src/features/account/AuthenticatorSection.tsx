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

/** A code form: the authenticator's code (or a recovery code) that a change asks for. */
function useCodeForm() {
  return useSchemaForm(codeInputSchema, {
    defaultValues: { code: '' },
    errorContext: messages.account.authenticatorContext,
    codes: { INVALID_SECOND_FACTOR: { field: 'code', message: messages.auth.codeFailed } },
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
          {factors.passkeys.length > 0
            ? 'Off. After your password, sign-in asks for a passkey.'
            : 'Off. Sign-in asks only for your password (or a passkey).'}
        </Typography>
        <Button
          variant="contained"
          disabled={isStarting}
          onClick={() => void form.attempt(async () => setEnrolment(await begin().unwrap()))}
        >
          Set up an authenticator app
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
        aria-label="Set up an authenticator app"
        onSubmit={form.submit(async ({ code }) => {
          const { recoveryCodes } = await confirm(code).unwrap();
          setEnrolment(undefined);
          form.reset();
          setCodes(recoveryCodes);
          dispatch(toastQueued(messages.account.authenticatorOn, 'success'));
        })}
      >
        <Typography>
          Scan the QR code with an authenticator app (or type the secret into it), then type the
          6-digit code it shows.
        </Typography>
        <AuthenticatorSetup enrolment={enrolment} />
        {form.failure && <Alert severity="error">{form.failure}</Alert>}
        <FormTextField
          control={form.control}
          name="code"
          label="Code"
          autoComplete="one-time-code"
          inputMode="numeric"
          required
        />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={isConfirming}>
            Turn on
          </Button>
          <Button onClick={() => setEnrolment(undefined)}>Cancel</Button>
        </Stack>
      </Stack>
    );

  return (
    // Two actions, neither the default: Enter in the code sends nothing.
    <Stack
      component="form"
      spacing={2}
      noValidate
      aria-label="Change the authenticator app"
      onSubmit={(event) => event.preventDefault()}
    >
      <Typography>
        On: sign-in asks for its code after your password. {factors.recoveryCodesLeft} recovery code
        {factors.recoveryCodesLeft === 1 ? '' : 's'} left.
      </Typography>
      {form.failure && <Alert severity="error">{form.failure}</Alert>}
      <FormTextField
        control={form.control}
        name="code"
        label="Code"
        hint="A current code, to make new recovery codes or to turn the app off"
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
          New recovery codes
        </Button>
        <Button
          color="error"
          // A role requires a second factor, and this is the only one.
          disabled={isDisabling || (factors.required && factors.passkeys.length === 0)}
          onClick={form.submit(async ({ code }) => {
            await disable(code).unwrap().catch(refused);
            form.reset();
            dispatch(toastQueued(messages.account.authenticatorOff, 'success'));
          })}
        >
          Turn off
        </Button>
      </Stack>
    </Stack>
  );
}
