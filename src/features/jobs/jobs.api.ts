import {
  type Job,
  type JobList,
  type JobListQuery,
  jobListSchema,
  jobSchema,
} from '@common/schemas/jobs';
import { api } from '@/api/api';
import { responseSchema } from '@/api/responseSchema';

export const jobsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listJobs: build.query<JobList, JobListQuery>({
      query: (params) => ({ url: '/api/LIMS/jobs', params }),
      providesTags: [{ type: 'Job', id: 'LIST' }],
      ...responseSchema(jobListSchema),
    }),
    getJob: build.query<Job, string>({
      query: (id) => `/api/LIMS/jobs/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Job', id }],
      ...responseSchema(jobSchema),
    }),
  }),
});

export const { useListJobsQuery, useGetJobQuery } = jobsApi;
