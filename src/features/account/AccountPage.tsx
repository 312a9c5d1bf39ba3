import { Alert, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { messages } from '@common/messages';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { useReportedError } from '@/hooks/useReportedError';
import { AccessTokensSection } from './AccessTokensSection';
import { AuthenticatorSection } from './AuthenticatorSection';
import { useGetFactorsQuery } from './account.api';
import { PasskeysSection } from './PasskeysSection';
import { useT } from '@/i18n/useT';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper component="section" aria-label={title} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** `/account`: the signed-in user's sign-in security: second factors and access tokens. */
export function AccountPage() {
  const factorsQuery = useGetFactorsQuery();
  const t = useT();
  useReportedError(messages.account.fetchContext, factorsQuery.error);
  return (
    <>
      <PageHeader title={t('account.title')} />
      <QueryState query={factorsQuery} what={t('account.what')}>
        {(factors) => (
          <Stack spacing={2}>
            {factors.required && <Alert severity="info">{t('account.required')}</Alert>}
            <Section title={t('account.authenticator')}>
              <AuthenticatorSection factors={factors} onStale={() => void factorsQuery.refetch()} />
            </Section>
            <Section title={t('account.passkeys')}>
              <PasskeysSection factors={factors} />
            </Section>
            <Section title={t('account.tokens')}>
              <AccessTokensSection />
            </Section>
          </Stack>
        )}
      </QueryState>
    </>
  );
}
