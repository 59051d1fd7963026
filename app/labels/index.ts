export { renderLabelsDocument, LABEL_SIZES, type LabelSize } from "./document";
export {
  labelDataFromDelivery,
  LabelUnavailableError,
  piecesFromDescription,
  type LabelData,
  type LabelDelivery,
  type LabelOrder,
  type LabelShop,
} from "./label-data";
export { filsFromKwdText, formatFils } from "./money";
