/** Shaping responses: field selection, views, links, the payload checker and the `payloads()` plugin. */
// What this folder adds to RouteConfig by declaration merging: `list`, `resource`.
import './route-config.ts';

export { checkPayload } from './check-payload.ts';
export { listQuery, type PayloadsOptions, pageArray, payloads } from './payloads.ts';
export { project, selectFields } from './project.ts';
export {
  defineResource,
  type FieldSubTree,
  type FieldTreeOf,
  type Resource,
  type ResourceOptions,
  type Selection,
} from './resource.ts';
export type { LinkRule, ResourceLink } from './resource-links.ts';
export {
  type FieldRequest,
  type FieldTree,
  parseFields,
  type SelectedField,
} from './select-fields.ts';
