/**
 * The one writer of Delivery.state. Every insert or update that sets or changes a delivery's
 * state is in this folder: each checks the move table (domain/states.ts) and writes the
 * timeline event in the same transaction. test/unit/one-state-writer.test.ts fails when a file of
 * app/ outside this folder writes the column. The rest of app/ imports the writer through this
 * index, as one module.
 */
export {
  BalanceCollectedElsewhereError,
  StaleDeliveryError,
  transition,
  type TransitionInput,
} from "./transition.server";
export {
  ATTACHABLE,
  attachIntentOnPostgres,
  insertDeliveryOnPostgres,
  type IntakeRow,
  type NewDelivery,
  recordDelivery,
  sqliteIntakeWrites,
} from "./intake.server";
export { recordSendIntent, skipIntent } from "./send-intents.server";
export { startCreating, type CreatingMove } from "./start-creating.server";
export { recordLateCourierOrder, type LateCourierOrder } from "./late-courier-order.server";
export { erasureCancelWrites } from "./erasure.server";
