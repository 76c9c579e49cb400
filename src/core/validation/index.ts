/** Body field checks that report every problem at once. */
// What this folder adds to RouteConfig by declaration merging: `body`, `rejectUnknownFields`.
import './route-config.ts';

export {
  type CheckFieldsOptions,
  checkFields,
  compileFields,
  type FieldChecker,
} from './check-fields.ts';
export type { FieldRule, FieldSchema, FieldType } from './field-types.ts';
export { isStandardSchema, issuePath, type RequestPart } from './standard-schema.ts';
export {
  defineRoute,
  defineRoutes,
  type FieldsOutput,
  type SchemaOutput,
  type SuccessBody,
  type TypedContext,
  type TypedEntry,
  type TypedResult,
  type TypedRoutes,
} from './typed-route.ts';
