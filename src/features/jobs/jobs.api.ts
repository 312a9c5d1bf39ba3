import type { Job, JobList, JobListQuery } from '@common/schemas/jobs';
import { api } from '@/api/api';

export const jobsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listJobs: build.query<JobList, JobListQuery>({
      query: (params) => ({ url: '/api/LIMS/jobs', params }),
      providesTags: [{ type: 'Job', id: 'LIST' }],
    }),
    getJob: build.query<Job, string>({
      query: (id) => `/api/LIMS/jobs/${id}`,
    }),
  }),
});

export const { useListJobsQuery, useGetJobQuery } = jobsApi;
