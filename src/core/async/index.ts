/** Asynchronous work (spec 4.3): 202 Accepted and status resources. */
export type { JobState, JobStatus } from './job-status.ts';
export { createJobs, type Jobs, type JobsOptions } from './jobs.ts';
export { type SeeOther, seeOther } from './see-other.ts';
