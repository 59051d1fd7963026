export {
  startWhatsAppStandIn,
  type RecordedMessage,
  type StandInFault,
  type StandInTemplate,
  type StatusCallback,
  type StatusFlow,
  type WhatsAppStandIn,
  type WhatsAppStandInOptions,
} from "./server";
