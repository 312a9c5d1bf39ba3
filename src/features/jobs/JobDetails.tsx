import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { messages } from '@common/messages';
import type { Job } from '@common/schemas/jobs';
import { QueryState } from '@/components/QueryState';
import { useReportedError } from '@/hooks/useReportedError';
import { useGetJobQuery } from './jobs.api';

/** A job's samples, their tasks and results, loaded when the job is expanded. */
export function JobDetails({ id, friendlyNumber }: { id: string; friendlyNumber: string }) {
  const jobQuery = useGetJobQuery(id);
  useReportedError(messages.jobs.detailsContext, jobQuery.error);

  return (
    <Box sx={{ width: '100%' }}>
      <QueryState
        query={jobQuery}
        what={`details of ${friendlyNumber}`}
        isEmpty={(job) => job.samples.length === 0}
        empty={messages.jobs.noData}
      >
        {(job) => <Samples job={job} friendlyNumber={friendlyNumber} />}
      </QueryState>
    </Box>
  );
}

function Samples({ job, friendlyNumber }: { job: Job; friendlyNumber: string }) {
  return (
    <Box sx={{ py: 1, width: '100%' }} aria-label={`Details of ${friendlyNumber}`} role="region">
      {job.samples.map((sample) => (
        <Box key={sample.friendlyNumber} sx={{ mb: 1.5 }}>
          <Typography variant="subtitle2" component="h2">
            Sample {sample.friendlyNumber}
          </Typography>
          {/* Fixed layout: the columns line up from one sample's table to the next. */}
          <Table
            size="small"
            aria-label={`Results of ${sample.friendlyNumber}`}
            sx={{ tableLayout: 'fixed' }}
          >
            <TableHead>
              <TableRow>
                <TableCell>Task</TableCell>
                <TableCell>Analyte</TableCell>
                <TableCell>Result</TableCell>
                <TableCell>Conclusion</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {sample.tasks.flatMap((task, t) =>
                task.results.map((result, r) => (
                  <TableRow key={`${t}-${r}`}>
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
