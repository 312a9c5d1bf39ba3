import { AppBar, Box, Button, Toolbar, Typography } from '@mui/material';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { loggedOut, selectIsAuthenticated } from '@/auth/auth.slice';

/** The top navigation: the brand, Home, and Login or Logout. */
export function NavBar() {
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  return (
    <AppBar position="static" component="nav" aria-label="Main">
      <Toolbar sx={{ gap: 1, flexWrap: 'wrap' }}>
        <Typography
          variant="h6"
          component={RouterLink}
          to="/"
          sx={{ mr: 2, color: 'inherit', textDecoration: 'none' }}
        >
          {messages.brand}
        </Typography>
        <Button color="inherit" component={RouterLink} to="/">
          Home
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        {isAuthenticated ? (
          <Button
            color="inherit"
            onClick={() => {
              dispatch(loggedOut());
              void navigate('/');
            }}
          >
            Logout
          </Button>
        ) : (
          <Button color="inherit" component={RouterLink} to="/login">
            Login
          </Button>
        )}
      </Toolbar>
    </AppBar>
  );
}
