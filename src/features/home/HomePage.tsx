import { Box, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { DEMO_ACCOUNTS } from '@common/constants';
import { useAppSelector } from '@/lib/store';
import { selectCurrentUser } from '@/auth/auth.slice';

const stack = [
  ['Front end', 'React 19 and TypeScript, built with webpack'],
  ['State', 'One Redux Toolkit store: an auth slice, a UI slice and RTK Query'],
  ['Session', 'Listener middleware that refreshes the access token before it expires'],
  ['Interface', 'MUI components, the MUI X DataGrid and notistack toasts'],
  ['Back end', 'A Fastify API in TypeScript'],
  ['Database', 'PostgreSQL, embedded as PGlite by default'],
  ['Tests', 'Jest with Testing Library, and Playwright in Chromium'],
] as const;

/** The demo credentials table's cells: a light rule under each row, as MUI's tables have. */
const cellSx = { p: 1, textAlign: 'left', borderBottom: 1, borderColor: 'divider' } as const;

/**
 * The public home page: the greeting, the stack, the demo accounts and the author's notes.
 * It is the first page most visitors load, so it is built from plain elements (Box,
 * Typography) rather than MUI's list and table components, which it would load only for this.
 */
export function HomePage() {
  const user = useAppSelector(selectCurrentUser);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
      <Typography variant="h4" component="h1">
        Hello, {user?.username ?? 'visitor'}
      </Typography>
      {user && (
        <Box>
          <Typography component={RouterLink} to="/books" variant="h6" color="primary.dark">
            Open the book library
          </Typography>
        </Box>
      )}

      <section aria-labelledby="stack-heading">
        <Typography id="stack-heading" variant="h5" component="h2" gutterBottom>
          Technology stack
        </Typography>
        <Box component="dl" sx={{ m: 0 }}>
          {stack.map(([part, what]) => (
            <Box key={part} sx={{ py: 0.5 }}>
              <Typography component="dt">{part}</Typography>
              <Typography component="dd" variant="body2" color="text.secondary" sx={{ m: 0 }}>
                {what}
              </Typography>
            </Box>
          ))}
        </Box>
      </section>

      <section aria-labelledby="demo-heading">
        <Typography id="demo-heading" variant="h5" component="h2" gutterBottom>
          Demo credentials
        </Typography>
        <Box
          component="table"
          aria-labelledby="demo-heading"
          sx={{ width: '100%', maxWidth: 480, borderCollapse: 'collapse', typography: 'body2' }}
        >
          <thead>
            <tr>
              <Box component="th" sx={cellSx}>
                Role
              </Box>
              <Box component="th" sx={cellSx}>
                Username
              </Box>
              <Box component="th" sx={cellSx}>
                Password
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
          Notes on building this with an AI assistant
        </Typography>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
          <Typography>
            This product was written with an AI coding assistant working from a written
            specification. The assistant is quick at the parts that follow a known shape: slices,
            endpoints, forms and their tests. It needs a clear contract to be quick at the rest.
          </Typography>
          <Typography>
            What helped most was writing the decisions down before the code: the API contract, the
            error messages and the limits, kept in one place both sides import, so that the client,
            the server and the tests cannot drift apart.
          </Typography>
          <Typography>
            What still needs a person: deciding what the product should do where the specification
            is silent, reading every change as a reviewer would, and trying each screen the way a
            user would. Tests against a real database and a real browser catch what a quick read
            misses.
          </Typography>
        </Box>
      </section>
    </Box>
  );
}
