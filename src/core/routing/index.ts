/** Route tables and the router (spec 4.1, 4.2). */
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
export {
  defineRoutes,
  type Handler,
  type HostRoute,
  type Method,
  type PathMethods,
  type RouteConfig,
  type RouteDefinition,
  type RouteInfo,
  type RouteSettings,
  type RouteTable,
} from './types.ts';
