import { Alert, Button, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { z } from 'zod';
import { messages } from '@common/messages';
import type { Factors, Passkey } from '@common/schemas/signIn';
import { nameText } from '@common/schemas/text';
import { createPasskey, passkeyFailure, passkeysSupported } from '@/auth/passkey';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { FormTextField } from '@/components/FormTextField';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { useAppDispatch } from '@/lib/store';
import { toastQueued } from '@/ui/ui.slice';
import {
  useAddPasskeyMutation,
  usePasskeyOptionsMutation,
  useRemovePasskeyMutation,
} from './account.api';
import { useT } from '@/i18n/useT';
import { Moment, withNodes } from './moments';

const nameSchema = z.object({
  name: nameText().trim().min(1, 'is required').max(60, 'must be at most 60 characters'),
});

/** The user's passkeys: each signs in alone, or as the second step after the password. */
export function PasskeysSection({ factors }: { factors: Factors }) {
  const dispatch = useAppDispatch();
  const t = useT();
  const [getOptions] = usePasskeyOptionsMutation();
  const [add, { isLoading: isAdding }] = useAddPasskeyMutation();
  const [remove] = useRemovePasskeyMutation();
  const form = useSchemaForm(nameSchema, {
    defaultValues: { name: '' },
    errorContext: messages.account.passkeyContext,
  });

  const submit = form.submit(async ({ name }) => {
    const options = await getOptions().unwrap();
    let credential;
    try {
      credential = await createPasskey(options);
    } catch (error) {
      throw passkeyFailure(error);
    }
    await add({ name, credential }).unwrap();
    form.reset();
    form.setFocus('name');
    dispatch(toastQueued(t('account.passkeyAdded', { name }), 'success'));
  });

  const removal = useConfirmedAction(async (passkey: Passkey) => {
    await remove(passkey._id).unwrap();
    dispatch(toastQueued(t('account.passkeyRemoved', { name: passkey.name }), 'success'));
    form.setFocus('name');
  }, messages.account.passkeyContext);

  return (
    <Stack spacing={2}>
      {factors.passkeys.length > 0 ? (
        <List aria-label={t('account.passkeys')} dense>
          {factors.passkeys.map((passkey) => (
            <ListItem
              key={passkey._id}
              divider
              secondaryAction={
                <Button
                  color="error"
                  aria-label={t('account.removeNamed', { name: passkey.name })}
                  onClick={() => removal.ask(passkey)}
                >
                  {t('account.remove')}
                </Button>
              }
            >
              <ListItemText
                primary={passkey.name}
                secondary={withNodes(
                  t,
                  'account.passkeyDates',
                  {},
                  {
                    added: <Moment iso={passkey.createdAt} never={t('account.never')} />,
                    used: <Moment iso={passkey.lastUsedAt} never={t('account.never')} />,
                  },
                )}
                sx={{ pr: 10 }}
              />
            </ListItem>
          ))}
        </List>
      ) : (
        <Typography>{t('account.noPasskeys')}</Typography>
      )}
      {passkeysSupported() ? (
        <Stack
          component="form"
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          noValidate
          aria-label={t('account.addPasskey')}
          onSubmit={submit}
          sx={{ alignItems: { sm: 'flex-start' } }}
        >
          <FormTextField
            control={form.control}
            name="name"
            label={t('account.passkeyName')}
            required
          />
          <Button type="submit" variant="contained" disabled={isAdding} sx={{ mt: { sm: 1 } }}>
            {t('account.addPasskey')}
          </Button>
        </Stack>
      ) : (
        <Typography>{t('account.noPasskeySupport')}</Typography>
      )}
      {form.failure && <Alert severity="error">{form.failure}</Alert>}
      <ConfirmDialog
        {...removal.dialog}
        title={t('account.removePasskeyTitle')}
        confirmLabel={t('account.remove')}
        message={t('account.removePasskeyQuestion', { name: removal.pending?.name ?? '' })}
      />
    </Stack>
  );
}
