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
export {
  isStandardSchema,
  issuePath,
  type RequestPart,
  schemaRejection,
} from './standard-schema.ts';
export {
  defineRoute,
  defineRoutes,
  type EnumRule,
  type FieldOutput,
  type FieldsOutput,
  type FieldTypeValue,
  type NullableRule,
  type RequiredRule,
  type RouteTypes,
  type RouteTypesRecord,
  type SchemaOutput,
  type SuccessBody,
  type TypedContext,
  type TypedDefinition,
  type TypedEntry,
  type TypedResult,
  type TypedRoutes,
  type TypedRule,
  type TypedTable,
  type UntypedDefinition,
} from './typed-route.ts';
