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
import { useT } from '@/i18n/useT';
import { Moment, withNodes } from './moments';

const LIVES = [7, 30, 90, 365];
const routeKey = (route: { routeVerb: string; routePath: string }) =>
  `${route.routeVerb} ${route.routePath}`;

/** A token just made: shown this once, to copy. */
function NewToken({ token, onDone }: { token: string; onDone(): void }) {
  const t = useT();
  return (
    <Stack spacing={1}>
      <Alert severity="warning">{t('account.tokenShownOnce')}</Alert>
      <Box
        component="code"
        data-testid="new-access-token"
        sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', p: 1, bgcolor: 'action.hover' }}
      >
        {token}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button onClick={() => void navigator.clipboard?.writeText(token)} autoFocus>
          {t('account.copyToken')}
        </Button>
        <Button variant="contained" onClick={onDone}>
          {t('account.done')}
        </Button>
      </Stack>
    </Stack>
  );
}

/** Personal access tokens: for scripts, each limited to some of the routes the user may call. */
export function AccessTokensSection() {
  const dispatch = useAppDispatch();
  const t = useT();
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
    dispatch(toastQueued(t('account.tokenRevoked', { name: token.name }), 'success'));
    form.setFocus('name');
  }, messages.account.tokenContext);

  const allowed = permissions.data?.allowed ?? [];
  return (
    <Stack spacing={2}>
      <QueryState query={tokensQuery} what={t('account.tokensWhat')} empty={t('account.noTokens')}>
        {(tokens) => (
          <List aria-label={t('account.tokenList')} dense>
            {tokens.map((token) => (
              <ListItem
                key={token._id}
                divider
                secondaryAction={
                  <Button
                    color="error"
                    aria-label={t('account.revokeNamed', { name: token.name })}
                    onClick={() => revocation.ask(token)}
                  >
                    {t('account.revoke')}
                  </Button>
                }
              >
                <ListItemText
                  primary={`${token.name} (${token.prefix}…)`}
                  secondary={withNodes(
                    t,
                    'account.tokenDates',
                    { count: token.routes.length },
                    {
                      expires: <Moment iso={token.expiresAt} never={t('account.never')} />,
                      used: <Moment iso={token.lastUsedAt} never={t('account.never')} />,
                    },
                  )}
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
        <Typography>{t('account.noRoutes')}</Typography>
      ) : (
        <Stack
          component="form"
          spacing={2}
          noValidate
          aria-label={t('account.newToken')}
          onSubmit={form.submit(async (input) => {
            const { token } = await create(input).unwrap();
            form.reset();
            setMade(token);
          })}
        >
          <Typography variant="subtitle1" component="h3">
            {t('account.newToken')}
          </Typography>
          {form.failure && <Alert severity="error">{form.failure}</Alert>}
          <FormTextField
            control={form.control}
            name="name"
            label={t('account.tokenName')}
            required
          />
          <Controller
            control={form.control}
            name="expiresInDays"
            render={({ field }) => (
              <TextField
                select
                label={t('account.expiresAfter')}
                value={field.value}
                onChange={(event) => field.onChange(Number(event.target.value))}
                sx={{ maxWidth: 220 }}
              >
                {LIVES.map((days) => (
                  <MenuItem key={days} value={days}>
                    {t('account.days', { count: days })}
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
                  <FormLabel component="legend">{t('account.routesLegend')}</FormLabel>
                  <FormControlLabel
                    label={t('account.allRoutes', { count: allowed.length })}
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
                    {fieldState.error?.message ?? t('account.routesHint')}
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
            {t('account.createToken')}
          </Button>
        </Stack>
      )}
      <ConfirmDialog
        {...revocation.dialog}
        title={t('account.revokeTitle')}
        confirmLabel={t('account.revoke')}
        message={t('account.revokeQuestion', { name: revocation.pending?.name ?? '' })}
      />
    </Stack>
  );
}
