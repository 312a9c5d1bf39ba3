import {
  Box,
  Button,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { DEMO_ACCOUNTS } from '@common/constants';
import { useAppSelector } from '@/app/hooks';
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

/** The public home page: the greeting, the stack, the demo accounts and the author's notes. */
export function HomePage() {
  const user = useAppSelector(selectCurrentUser);

  return (
    <Stack spacing={4}>
      <Typography variant="h4" component="h1">
        Hello, {user?.username ?? 'visitor'}
      </Typography>
      {user && (
        <Box>
          <Button variant="contained" component={RouterLink} to="/books">
            Open the book library
          </Button>
        </Box>
      )}

      <section aria-labelledby="stack-heading">
        <Typography id="stack-heading" variant="h5" component="h2" gutterBottom>
          Technology stack
        </Typography>
        <List dense>
          {stack.map(([part, what]) => (
            <ListItem key={part} disableGutters>
              <ListItemText primary={part} secondary={what} />
            </ListItem>
          ))}
        </List>
      </section>

      <section aria-labelledby="demo-heading">
        <Typography id="demo-heading" variant="h5" component="h2" gutterBottom>
          Demo credentials
        </Typography>
        <TableContainer component={Paper} sx={{ maxWidth: 480 }}>
          <Table size="small" aria-labelledby="demo-heading">
            <TableHead>
              <TableRow>
                <TableCell>Role</TableCell>
                <TableCell>Username</TableCell>
                <TableCell>Password</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {DEMO_ACCOUNTS.map(({ role, username, password }) => (
                <TableRow key={username}>
                  <TableCell>{role}</TableCell>
                  <TableCell>{username}</TableCell>
                  <TableCell>{password}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </section>

      <section aria-labelledby="notes-heading">
        <Typography id="notes-heading" variant="h5" component="h2" gutterBottom>
          Notes on building this with an AI assistant
        </Typography>
        <Stack spacing={1}>
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
        </Stack>
      </section>
    </Stack>
  );
}
