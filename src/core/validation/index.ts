/** Body field checks that report every problem at once. */
export {
  type CheckFieldsOptions,
  checkFields,
  compileFields,
  type FieldChecker,
  type FieldRule,
  type FieldSchema,
  type FieldType,
} from './check-fields.ts';
