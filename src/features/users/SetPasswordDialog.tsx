import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
} from '@mui/material';
import { useId } from 'react';
import { messages } from '@common/messages';
import { setPasswordSchema, type User } from '@common/schemas/users';
import { useAppDispatch } from '@/lib/store';
import { FormTextField } from '@/components/FormTextField';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { useT } from '@/i18n/useT';
import { toastQueued } from '@/ui/ui.slice';
import { useSetUserPasswordMutation } from './users.api';

interface SetPasswordDialogProps {
  user: User;
  onClose(): void;
}

/**
 * An administrator sets `user`'s password (`PUT /api/users/{id}/password`): checked by the
 * common schema first; on success the dialog closes with a toast saying the user was
 * signed out everywhere (the server ends their sessions).
 */
export function SetPasswordDialog({ user, onClose }: SetPasswordDialogProps) {
  const t = useT();
  const titleId = useId();
  const [setUserPassword, { isLoading }] = useSetUserPasswordMutation();
  const dispatch = useAppDispatch();
  const form = useSchemaForm(setPasswordSchema, {
    defaultValues: { password: '' },
    errorContext: messages.users.setPasswordContext,
  });

  const save = form.submit(async ({ password }) => {
    await setUserPassword({ id: user._id, password }).unwrap();
    dispatch(toastQueued(t('users.passwordSet', { name: user.username }), 'success'));
    onClose();
  });

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <Stack component="form" onSubmit={save} noValidate aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{t('users.setPasswordFor', { name: user.username })}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>
              {t('users.signedOutEverywhere', { name: user.username })}
            </DialogContentText>
            {form.failure && <Alert severity="error">{form.failure}</Alert>}
            <FormTextField
              control={form.control}
              name="password"
              label={t('users.newPassword')}
              type="password"
              autoComplete="new-password"
              required
              autoFocus
              hint={t('auth.passwordHint')}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isLoading}>
            {t('users.setPassword')}
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}
