export {
  DEFAULT_SANDBOX_KEY,
  startCourierSandbox,
  type CourierSandbox,
  type CourierSandboxOptions,
  type SandboxLogEntry,
} from "./server";
export {
  FaultInjector,
  SANDBOX_ENDPOINTS,
  type FaultKind,
  type FaultRule,
  type SandboxEndpoint,
} from "./faults";
export {
  COURIER_SPELLINGS,
  MISSING_AREAS,
  ORDER_STATUSES,
  VEHICLE_TYPES,
  PAYMENT_METHODS,
  loadMasterData,
  type SandboxArea,
  type SandboxGovernance,
  type StatusCode,
} from "./master-data";
export {
  CANCELLABLE,
  priceOf,
  type FailureKind,
  type SandboxOrder,
  type SandboxException,
} from "./orders";
export { kuwaitLocal, parseKuwaitLocal } from "./validation";
export {
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  signWebhookBody,
  verifyWebhookSignature,
  type WebhookConfig,
  type WebhookDelivery,
} from "./webhooks";
