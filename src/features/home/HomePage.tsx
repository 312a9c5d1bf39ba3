import { Box, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { DEMO_ACCOUNTS } from '@common/constants';
import { useAppSelector } from '@/lib/store';
import { selectCurrentUser } from '@/auth/auth.slice';
import type { MessageId } from '@/i18n/i18n';
import { useT } from '@/i18n/useT';

const stack = [
  ['home.stackFrontEnd', 'home.stackFrontEndWhat'],
  ['home.stackState', 'home.stackStateWhat'],
  ['home.stackSession', 'home.stackSessionWhat'],
  ['home.stackInterface', 'home.stackInterfaceWhat'],
  ['home.stackBackEnd', 'home.stackBackEndWhat'],
  ['home.stackDatabase', 'home.stackDatabaseWhat'],
  ['home.stackTests', 'home.stackTestsWhat'],
] as const satisfies [MessageId, MessageId][];

/** The demo credentials table's cells: a light rule under each row, as MUI's tables have. */
const cellSx = { p: 1, textAlign: 'left', borderBottom: 1, borderColor: 'divider' } as const;

/**
 * The public home page: the greeting, the stack, the demo accounts and the author's notes.
 * It is the first page most visitors load, so it is built from plain elements (Box,
 * Typography) rather than MUI's list and table components, which it would load only for this.
 */
export function HomePage() {
  const user = useAppSelector(selectCurrentUser);
  const t = useT();

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
      <Typography variant="h4" component="h1">
        {t('home.hello', { name: user?.username ?? t('home.visitor') })}
      </Typography>
      {user && (
        <Box>
          <Typography component={RouterLink} to="/books" variant="h6" color="primary.dark">
            {t('home.openBooks')}
          </Typography>
        </Box>
      )}

      <section aria-labelledby="stack-heading">
        <Typography id="stack-heading" variant="h5" component="h2" gutterBottom>
          {t('home.stack')}
        </Typography>
        <Box component="dl" sx={{ m: 0 }}>
          {stack.map(([part, what]) => (
            <Box key={part} sx={{ py: 0.5 }}>
              <Typography component="dt">{t(part)}</Typography>
              <Typography component="dd" variant="body2" color="text.secondary" sx={{ m: 0 }}>
                {t(what)}
              </Typography>
            </Box>
          ))}
        </Box>
      </section>

      <section aria-labelledby="demo-heading">
        <Typography id="demo-heading" variant="h5" component="h2" gutterBottom>
          {t('home.demo')}
        </Typography>
        <Box
          component="table"
          aria-labelledby="demo-heading"
          sx={{ width: '100%', maxWidth: 480, borderCollapse: 'collapse', typography: 'body2' }}
        >
          <thead>
            <tr>
              <Box component="th" sx={cellSx}>
                {t('home.role')}
              </Box>
              <Box component="th" sx={cellSx}>
                {t('home.username')}
              </Box>
              <Box component="th" sx={cellSx}>
                {t('home.password')}
              </Box>
            </tr>
          </thead>
          <tbody>
            {DEMO_ACCOUNTS.map(({ role, username, password }) => (
              <tr key={username}>
                <Box component="td" sx={cellSx}>
                  {role}
                </Box>
                <Box component="td" sx={cellSx}>
                  {username}
                </Box>
                <Box component="td" sx={cellSx}>
                  {password}
                </Box>
              </tr>
            ))}
          </tbody>
        </Box>
      </section>

      <section aria-labelledby="notes-heading">
        <Typography id="notes-heading" variant="h5" component="h2" gutterBottom>
          {t('home.notes')}
        </Typography>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
          <Typography>{t('home.notes1')}</Typography>
          <Typography>{t('home.notes2')}</Typography>
          <Typography>{t('home.notes3')}</Typography>
        </Box>
      </section>
    </Box>
  );
}
