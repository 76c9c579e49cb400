/** A job's status resource: its body, and how the OpenAPI document describes it. */
import type { ErrorEntry } from '../errors/api-error.ts';
import type { OpenApiOperationSettings } from '../openapi/route-config.ts';

/**
 * Where a job stands: `pending` until its work settles, then `done` or `failed`.
 *
 * @category Asynchronous work
 */
export type JobState = 'pending' | 'done' | 'failed';

/**
 * The body of a status resource.
 *
 * @category Asynchronous work
 */
export interface JobStatus {
  /** The job's id, the last segment of its status resource. */
  id: string;
  /** Where it stands. */
  status: JobState;
  /** When it was accepted (RFC 3339). */
  createdAt: string;
  /** When it settled (RFC 3339); absent while pending. */
  finishedAt?: string;
  /** The outcome of a job done with the result inline. */
  result?: unknown;
  /** Where the outcome of a job done with `seeOther()` lives: the status answers 303 to it. */
  location?: string;
  /** Why a failed job failed, as in the error body (spec 7.1.5). */
  errors?: ErrorEntry[];
}

/** The body of a status resource as a JSON Schema. */
const statusSchema = {
  type: 'object',
  required: ['id', 'status', 'createdAt'],
  properties: {
    id: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'done', 'failed'] },
    createdAt: { type: 'string', format: 'date-time' },
    finishedAt: { type: 'string', format: 'date-time' },
    result: {},
    location: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['message', 'code'],
        properties: { message: { type: 'string' }, code: { type: 'integer' } },
      },
    },
  },
};
// Named `JobStatus` in the document, so a route that starts jobs can refer to it.
const namedStatus = { $ref: '#/$defs/JobStatus', $defs: { JobStatus: statusSchema } };

/**
 * The status route's operation in the OpenAPI document: a {@link JobStatus}, 200 or 303
 * (RFC 9110 §15.4.4).
 */
export const statusDocument: OpenApiOperationSettings = {
  summary: 'The status of a job',
  responses: {
    '200': {
      description: 'The job: pending (with Retry-After), done with its result, or failed with why.',
      headers: {
        'Retry-After': {
          description: 'Seconds before asking again, while pending.',
          schema: { type: 'integer' },
        },
      },
      content: { 'application/json': { schema: namedStatus } },
    },
    '303': {
      description: 'Done: the outcome is a resource of its own, at Location.',
      headers: { Location: { description: 'The outcome.', schema: { type: 'string' } } },
      content: { 'application/json': { schema: namedStatus } },
    },
  },
};
