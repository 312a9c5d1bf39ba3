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
  const titleId = useId();
  const [setUserPassword, { isLoading }] = useSetUserPasswordMutation();
  const dispatch = useAppDispatch();
  const form = useSchemaForm(setPasswordSchema, {
    defaultValues: { password: '' },
    errorContext: messages.users.setPasswordContext,
  });

  const save = form.submit(async ({ password }) => {
    await setUserPassword({ id: user._id, password }).unwrap();
    dispatch(toastQueued(messages.users.passwordSet(user.username), 'success'));
    onClose();
  });

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <Stack component="form" onSubmit={save} noValidate aria-labelledby={titleId}>
        <DialogTitle id={titleId}>Set password for {user.username}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>
              {user.username} will be signed out everywhere and must sign in with the new password.
            </DialogContentText>
            {form.failure && <Alert severity="error">{form.failure}</Alert>}
            <FormTextField
              control={form.control}
              name="password"
              label="New password"
              type="password"
              autoComplete="new-password"
              required
              autoFocus
              hint="8 to 128 characters"
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={isLoading}>
            Set password
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}
