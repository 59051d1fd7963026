export type { BulkCreateResult, BulkItemResult } from "./bulk-result";
export {
  createCourierClient,
  type CourierClient,
  type ExceptionsPage,
  type HistoryPage,
  type SendOptions,
} from "./client";
export { ENDPOINTS, type CourierEndpoint, type CourierLanguage } from "./endpoints";
export {
  CourierAuthError,
  CourierCircuitOpenError,
  CourierError,
  CourierMalformedReplyError,
  CourierNotFoundError,
  CourierSendExpiredError,
  CourierTimeoutError,
  CourierUnavailableError,
  CourierValidationError,
  isCourierError,
  type CourierFieldError,
  type CourierOutcome,
  type UnavailableReason,
} from "./errors";
export {
  formatKuwaitDate,
  formatKuwaitDateTime,
  parseKuwaitDateTime,
  roundCoordinate,
  roundKwd,
} from "./format";
export { fetchMasterData, testConnection, type CourierMasterData } from "./master-data";
export {
  KUWAIT_COUNTRY_CODE,
  asciiDigits,
  normalizeContactPhone,
  normalizeContactPhoneAnyCountry,
  normalizeCountryCode,
  type PhoneNormalization,
} from "./phone";
export {
  buildCreateOrderBody,
  type AddressInput,
  type CancelInput,
  type CourierAddress,
  type CreateOrderBody,
  type CreateOrderInput,
  type ExceptionsQuery,
  type HistoryQuery,
  type PriceInput,
  type ReportQuery,
} from "./requests";
export type {
  Area,
  CancelResult,
  CorporateReport,
  CourierException,
  CreateOrderResult,
  Governance,
  OrderRecord,
  OrderStatus,
  PriceQuote,
  Tracking,
  TrackingEvent,
  VehicleType,
} from "./results";
export type { CourierCallEvent, CourierClientOptions } from "./transport";
export { PUSH_SIGNATURE_HEADER, pushEventId, signPush, verifyPushSignature } from "./push";
