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

const nameSchema = z.object({
  name: nameText().trim().min(1, 'is required').max(60, 'must be at most 60 characters'),
});

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/** The user's passkeys: each signs in alone, or as the second step after the password. */
export function PasskeysSection({ factors }: { factors: Factors }) {
  const dispatch = useAppDispatch();
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
    dispatch(toastQueued(messages.account.passkeyAdded(name), 'success'));
  });

  const removal = useConfirmedAction(async (passkey: Passkey) => {
    await remove(passkey._id).unwrap();
    dispatch(toastQueued(messages.account.passkeyRemoved(passkey.name), 'success'));
    form.setFocus('name');
  }, messages.account.passkeyContext);

  return (
    <Stack spacing={2}>
      {factors.passkeys.length > 0 ? (
        <List aria-label="Passkeys" dense>
          {factors.passkeys.map((passkey) => (
            <ListItem
              key={passkey._id}
              divider
              secondaryAction={
                <Button
                  color="error"
                  aria-label={`Remove ${passkey.name}`}
                  onClick={() => removal.ask(passkey)}
                >
                  Remove
                </Button>
              }
            >
              <ListItemText
                primary={passkey.name}
                secondary={`Added ${when(passkey.createdAt)} · last used ${when(passkey.lastUsedAt)}`}
                sx={{ pr: 10 }}
              />
            </ListItem>
          ))}
        </List>
      ) : (
        <Typography>No passkeys yet.</Typography>
      )}
      {passkeysSupported() ? (
        <Stack
          component="form"
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          noValidate
          aria-label="Add a passkey"
          onSubmit={submit}
          sx={{ alignItems: { sm: 'flex-start' } }}
        >
          <FormTextField control={form.control} name="name" label="Passkey name" required />
          <Button type="submit" variant="contained" disabled={isAdding} sx={{ mt: { sm: 1 } }}>
            Add a passkey
          </Button>
        </Stack>
      ) : (
        <Typography>This browser cannot use passkeys.</Typography>
      )}
      {form.failure && <Alert severity="error">{form.failure}</Alert>}
      <ConfirmDialog
        {...removal.dialog}
        title="Remove passkey"
        confirmLabel="Remove"
        message={`Remove the passkey ${removal.pending?.name ?? ''}? It will no longer sign you in.`}
      />
    </Stack>
  );
}
