/** The router: route lookups by method and path (spec 4.1, 4.2). */
export {
  allowList,
  type MethodNotFound,
  type OptionsFound,
  type PathNotFound,
  type RouteFound,
  type RouteLookup,
  type RouteMatch,
  Router,
} from './router.ts';
