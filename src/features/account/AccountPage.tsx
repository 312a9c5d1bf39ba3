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
  useReportedError(messages.account.fetchContext, factorsQuery.error);
  return (
    <>
      <PageHeader title="Sign-in security" />
      <QueryState query={factorsQuery} what="your sign-in settings">
        {(factors) => (
          <Stack spacing={2}>
            {factors.required && <Alert severity="info">{messages.account.required}</Alert>}
            <Section title="Authenticator app">
              <AuthenticatorSection factors={factors} onStale={() => void factorsQuery.refetch()} />
            </Section>
            <Section title="Passkeys">
              <PasskeysSection factors={factors} />
            </Section>
            <Section title="Personal access tokens">
              <AccessTokensSection />
            </Section>
          </Stack>
        )}
      </QueryState>
    </>
  );
}
