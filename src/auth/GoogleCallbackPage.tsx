import { CircularProgress, Stack, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch } from '@/lib/store';
import { useIdentifyMutation } from './auth.api';
import { loggedIn, loggedOut, userIdentified } from './auth.slice';
import { useT } from '@/i18n/useT';

/**
 * `/google-callback/`: the server sends the browser here with the tokens. They are stored,
 * identify says who this is, and the user goes home; on failure, back to /Login.
 */
export function GoogleCallbackPage() {
  const [params] = useSearchParams();
  const [identify] = useIdentifyMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const started = useRef(false);
  const t = useT();

  useEffect(() => {
    if (started.current) return; // once, even under StrictMode's double effects
    started.current = true;
    const accessToken = params.get('token');
    const refreshToken = params.get('refreshToken');
    void (async () => {
      try {
        if (!accessToken || !refreshToken) throw new Error('The tokens are missing');
        dispatch(loggedIn({ accessToken, refreshToken }));
        dispatch(userIdentified(await identify(accessToken).unwrap()));
        void navigate('/', { replace: true });
      } catch {
        dispatch(loggedOut());
        void navigate('/Login', { replace: true });
      }
    })();
  }, [params, identify, dispatch, navigate]);

  return (
    <Stack spacing={2} sx={{ py: 6, alignItems: 'center' }}>
      <CircularProgress aria-hidden />
      <Typography>{t('auth.loggingInWithGoogle')}</Typography>
    </Stack>
  );
}
