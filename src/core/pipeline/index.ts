/** The request pipeline: `conventions()`, the compiled service and its phases. */
// What this folder adds to RouteConfig by declaration merging: `accepts`, `bodyStructure`.
import './route-config.ts';

export {
  Conventions,
  conventions,
  isConventions,
  toConventions,
} from './conventions.ts';
export type { ConventionsOptions } from './options.ts';
export { jsonSerializer } from './serialize.ts';
