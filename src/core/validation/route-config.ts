/** A route's body field rules, added to `RouteConfig` (checked by the pipeline after parsing). */
import type { FieldSchema } from './field-types.ts';

declare module '../routing/types.ts' {
  interface RouteConfig {
    /**
     * Fields the body must have; every problem is reported at once as a 400. On PATCH every field
     * is optional. @default no check
     */
    body?: FieldSchema;
    /** Whether unknown body fields are a 400 when `body` is set. @default true */
    rejectUnknownFields?: boolean;
  }
}
