import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { Controller } from 'react-hook-form';
import { messages } from '@common/messages';
import { type AccessToken, createAccessTokenSchema } from '@common/schemas/accessTokens';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { useGetPermissionsQuery } from '@/auth/permissions.api';
import { FormTextField } from '@/components/FormTextField';
import { QueryState } from '@/components/QueryState';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { useAppDispatch } from '@/lib/store';
import { toastQueued } from '@/ui/ui.slice';
import {
  useCreateAccessTokenMutation,
  useListAccessTokensQuery,
  useRevokeAccessTokenMutation,
} from './account.api';

const LIVES = [7, 30, 90, 365];
const routeKey = (route: { routeVerb: string; routePath: string }) =>
  `${route.routeVerb} ${route.routePath}`;
const day = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/** A token just made: shown this once, to copy. */
function NewToken({ token, onDone }: { token: string; onDone(): void }) {
  return (
    <Stack spacing={1}>
      <Alert severity="warning">{messages.account.tokenShownOnce}</Alert>
      <Box
        component="code"
        data-testid="new-access-token"
        sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', p: 1, bgcolor: 'action.hover' }}
      >
        {token}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button onClick={() => void navigator.clipboard?.writeText(token)} autoFocus>
          Copy token
        </Button>
        <Button variant="contained" onClick={onDone}>
          Done
        </Button>
      </Stack>
    </Stack>
  );
}

/** Personal access tokens: for scripts, each limited to some of the routes the user may call. */
export function AccessTokensSection() {
  const dispatch = useAppDispatch();
  const tokensQuery = useListAccessTokensQuery();
  const permissions = useGetPermissionsQuery();
  const [create, { isLoading: isCreating }] = useCreateAccessTokenMutation();
  const [revoke] = useRevokeAccessTokenMutation();
  const [made, setMade] = useState<string>();
  const form = useSchemaForm(createAccessTokenSchema, {
    defaultValues: { name: '', expiresInDays: 30, routes: [] },
    errorContext: messages.account.tokenContext,
    codes: { NAME_TAKEN: { field: 'name' } },
  });
  // Once the shown token is put away, the focus goes to the form that comes back.
  const refocus = useRef(false);
  const { setFocus } = form;
  useEffect(() => {
    if (made || !refocus.current) return;
    refocus.current = false;
    setFocus('name');
  }, [made, setFocus]);

  const revocation = useConfirmedAction(async (token: AccessToken) => {
    await revoke(token._id).unwrap();
    dispatch(toastQueued(messages.account.tokenRevoked(token.name), 'success'));
    form.setFocus('name');
  }, messages.account.tokenContext);

  const allowed = permissions.data?.allowed ?? [];
  return (
    <Stack spacing={2}>
      <QueryState query={tokensQuery} what="access tokens" empty="No access tokens yet">
        {(tokens) => (
          <List aria-label="Access tokens" dense>
            {tokens.map((token) => (
              <ListItem
                key={token._id}
                divider
                secondaryAction={
                  <Button
                    color="error"
                    aria-label={`Revoke ${token.name}`}
                    onClick={() => revocation.ask(token)}
                  >
                    Revoke
                  </Button>
                }
              >
                <ListItemText
                  primary={`${token.name} (${token.prefix}…)`}
                  secondary={`${token.routes.length} route${token.routes.length === 1 ? '' : 's'} · expires ${day(token.expiresAt)} · last used ${day(token.lastUsedAt)}`}
                  sx={{ pr: 10, overflowWrap: 'anywhere' }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </QueryState>
      {made ? (
        <NewToken
          token={made}
          onDone={() => {
            refocus.current = true;
            setMade(undefined);
          }}
        />
      ) : permissions.isSuccess && allowed.length === 0 ? (
        <Typography>
          Your roles let you call no routes, so an access token could do nothing. An administrator
          can give you a role.
        </Typography>
      ) : (
        <Stack
          component="form"
          spacing={2}
          noValidate
          aria-label="New access token"
          onSubmit={form.submit(async (input) => {
            const { token } = await create(input).unwrap();
            form.reset();
            setMade(token);
          })}
        >
          <Typography variant="subtitle1" component="h3">
            New access token
          </Typography>
          {form.failure && <Alert severity="error">{form.failure}</Alert>}
          <FormTextField control={form.control} name="name" label="Token name" required />
          <Controller
            control={form.control}
            name="expiresInDays"
            render={({ field }) => (
              <TextField
                select
                label="Expires after"
                value={field.value}
                onChange={(event) => field.onChange(Number(event.target.value))}
                sx={{ maxWidth: 220 }}
              >
                {LIVES.map((days) => (
                  <MenuItem key={days} value={days}>
                    {days} days
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <Controller
            control={form.control}
            name="routes"
            render={({ field, fieldState }) => {
              const chosen = new Set(field.value.map(routeKey));
              return (
                <FormControl component="fieldset" error={Boolean(fieldState.error)}>
                  <FormLabel component="legend">Routes it may call</FormLabel>
                  <FormControlLabel
                    label={`All ${allowed.length} routes`}
                    control={
                      <Checkbox
                        size="small"
                        checked={chosen.size === allowed.length}
                        indeterminate={chosen.size > 0 && chosen.size < allowed.length}
                        onChange={(event) => field.onChange(event.target.checked ? allowed : [])}
                      />
                    }
                  />
                  {/* Scrolls within a border, so routes past its height are seen to be there. */}
                  <FormGroup
                    sx={{
                      maxHeight: 260,
                      overflowY: 'auto',
                      flexWrap: 'nowrap',
                      border: 1,
                      borderColor: 'divider',
                      borderRadius: 1,
                      px: 1,
                    }}
                  >
                    {allowed.map((route) => (
                      <FormControlLabel
                        key={routeKey(route)}
                        label={
                          <Box component="code" sx={{ overflowWrap: 'anywhere' }}>
                            {routeKey(route)}
                          </Box>
                        }
                        control={
                          <Checkbox
                            size="small"
                            checked={chosen.has(routeKey(route))}
                            onChange={(event) =>
                              field.onChange(
                                event.target.checked
                                  ? [...field.value, route]
                                  : field.value.filter((r) => routeKey(r) !== routeKey(route)),
                              )
                            }
                          />
                        }
                      />
                    ))}
                  </FormGroup>
                  <FormHelperText>
                    {fieldState.error?.message ??
                      'Only routes your roles let you call; it loses any your roles lose.'}
                  </FormHelperText>
                </FormControl>
              );
            }}
          />
          <Button
            type="submit"
            variant="contained"
            disabled={isCreating}
            sx={{ alignSelf: 'flex-start' }}
          >
            Create token
          </Button>
        </Stack>
      )}
      <ConfirmDialog
        {...revocation.dialog}
        title="Revoke access token"
        confirmLabel="Revoke"
        message={`Revoke ${revocation.pending?.name ?? ''}? Scripts using it stop working at once.`}
      />
    </Stack>
  );
}
