/** Asynchronous work (spec 4.3): 202 Accepted and status resources. */
export {
  createJobs,
  type JobState,
  type JobStatus,
  type Jobs,
  type JobsOptions,
  type SeeOther,
  seeOther,
} from './jobs.ts';
