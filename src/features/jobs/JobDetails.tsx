import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { messages } from '@common/messages';
import type { Job } from '@common/schemas/jobs';
import { QueryState } from '@/components/QueryState';
import { useReportedError } from '@/hooks/useReportedError';
import { useGetJobQuery } from './jobs.api';
import { useT } from '@/i18n/useT';

/** A job's samples, their tasks and results, loaded when the job is expanded. */
export function JobDetails({ id, friendlyNumber }: { id: string; friendlyNumber: string }) {
  const jobQuery = useGetJobQuery(id);
  const t = useT();
  useReportedError(messages.jobs.detailsContext, jobQuery.error);

  return (
    <Box sx={{ width: '100%' }}>
      <QueryState
        query={jobQuery}
        what={t('jobs.detailsWhat', { number: friendlyNumber })}
        isEmpty={(job) => job.samples.length === 0}
        empty={t('jobs.noData')}
      >
        {(job) => <Samples job={job} friendlyNumber={friendlyNumber} />}
      </QueryState>
    </Box>
  );
}

function Samples({ job, friendlyNumber }: { job: Job; friendlyNumber: string }) {
  const t = useT();
  return (
    <Box
      sx={{ py: 1, width: '100%' }}
      aria-label={t('jobs.detailsOf', { number: friendlyNumber })}
      role="region"
    >
      {job.samples.map((sample) => (
        <Box key={sample.friendlyNumber} sx={{ mb: 1.5 }}>
          <Typography variant="subtitle2" component="h2">
            {t('jobs.sample', { number: sample.friendlyNumber })}
          </Typography>
          {/* Fixed layout: the columns line up from one sample's table to the next. */}
          <Table
            size="small"
            aria-label={t('jobs.resultsOf', { number: sample.friendlyNumber })}
            sx={{ tableLayout: 'fixed' }}
          >
            <TableHead>
              <TableRow>
                <TableCell>{t('jobs.task')}</TableCell>
                <TableCell>{t('jobs.analyte')}</TableCell>
                <TableCell>{t('jobs.result')}</TableCell>
                <TableCell>{t('jobs.conclusion')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {sample.tasks.flatMap((task, i) =>
                task.results.map((result, r) => (
                  <TableRow key={`${i}-${r}`}>
                    <TableCell>{r === 0 ? task.name : ''}</TableCell>
                    <TableCell>{result.analyte}</TableCell>
                    <TableCell>{result.formatted}</TableCell>
                    <TableCell
                      sx={{ color: result.conclusion === 'Fail' ? 'error.main' : undefined }}
                    >
                      {result.conclusion}
                    </TableCell>
                  </TableRow>
                )),
              )}
            </TableBody>
          </Table>
        </Box>
      ))}
    </Box>
  );
}
