/** Versioning and deprecation (spec 9): path versions, deprecation headers, sunsets, version selection. */
// What this folder adds to RouteConfig by declaration merging: `deprecation`; `RequestState.apiVersion`.
import './route-config.ts';

export type { Deprecation } from './deprecation.ts';
export { type VersionedEndpoint, type VersionedOptions, versioned } from './versioned.ts';
export {
  type DeprecatedCall,
  type VersioningOptions,
  type VersionSelection,
  versioning,
} from './versioning.ts';
