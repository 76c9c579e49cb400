/**
 * `api-conventions/otel`: OpenTelemetry traces and metrics for the conventions, named by the
 * route that served each request on every host. It loads the global `@opentelemetry/api` (an
 * optional peer dependency) and nothing else: install the API and an SDK to use it. The guide:
 * [Observability](../docs/observability.md).
 *
 * @module api-conventions/otel
 */
export {
  contextOf,
  spanOf,
  type TelemetryOptions,
  TelemetryPlugin,
  telemetry,
} from './otel/telemetry.ts';
