import { renderToStaticMarkup } from "react-dom/server";
import { code128Svg, qrCodeSvg } from "./codes";
import { LABEL_FONT_FAMILY, labelFontFaces } from "./fonts.server";
import type { LabelData } from "./label-data";

/** The label sizes a courier's thermal or office printer takes. */
export const LABEL_SIZES = {
  A6: { width: "105mm", height: "148mm" },
  "4x6": { width: "4in", height: "6in" },
} as const;
export type LabelSize = keyof typeof LABEL_SIZES;

/**
 * One print-ready HTML document with a label per page. The browser that prints it shapes the
 * Arabic and lays it out right to left (ADR 0030); React renders the markup, so every value from
 * an order (a shopper's address, a name) is escaped text, never markup. The barcode and QR code
 * are SVG from bwip-js, the only markup inserted as is.
 */
export function renderLabelsDocument(
  labels: readonly LabelData[],
  options: { size: LabelSize; title?: string },
): string {
  const size = LABEL_SIZES[options.size];
  const body = renderToStaticMarkup(
    <>
      {labels.map((label) => (
        <Label key={label.deliveryId} label={label} />
      ))}
    </>,
  );
  const title = renderToStaticMarkup(<title>{options.title ?? "Shipping labels"}</title>);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">${title}
<meta name="viewport" content="width=device-width">
<style>${labelFontFaces()}
${styles(size.width, size.height)}</style></head>
<body>${body}</body></html>`;
}

function styles(width: string, height: string): string {
  return `
@page { size: ${width} ${height}; margin: 0; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { font-family: "${LABEL_FONT_FAMILY}", "DejaVu Sans", Arial, sans-serif; color: #000; background: #fff;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.label { width: ${width}; height: ${height}; padding: 3.5mm; overflow: hidden; display: flex;
  flex-direction: column; gap: 1.6mm; break-after: page; page-break-after: always; font-size: 8.5pt; line-height: 1.25; }
.label:last-child { break-after: auto; page-break-after: auto; }
@media screen { body { background: #ccc; } .label { background: #fff; margin: 4mm auto; } }
.head { display: flex; justify-content: space-between; align-items: baseline; gap: 2mm; border-bottom: 0.4mm solid #000; padding-bottom: 1mm; }
.shop { font-weight: 700; font-size: 10pt; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
.order { font-weight: 700; font-size: 10pt; white-space: nowrap; }
.barcode svg { display: block; width: 88%; height: 14mm; margin: 0 auto; }
.number { font-family: "DejaVu Sans Mono", monospace; font-weight: 700; font-size: 13pt; text-align: center; letter-spacing: 0.5pt; }
.to { border: 0.4mm solid #000; padding: 1.5mm; display: flex; flex-direction: column; gap: 1mm; min-height: 0; flex: 1 1 auto; overflow: hidden; }
.caption { font-size: 6.5pt; text-transform: uppercase; letter-spacing: 0.3pt; }
.recipient { display: flex; justify-content: space-between; gap: 2mm; font-weight: 700; font-size: 10pt; }
.recipient .name { overflow-wrap: anywhere; min-width: 0; }
.recipient .phone { white-space: nowrap; direction: ltr; }
.place { display: grid; grid-template-columns: 1fr 1fr; gap: 0 2mm; align-items: baseline; }
.place .en { font-weight: 700; font-size: 11pt; }
.place .ar { font-weight: 700; font-size: 12pt; text-align: right; }
.place .gov { font-weight: 400; font-size: 8.5pt; }
.parts { display: grid; grid-template-columns: repeat(4, 1fr); gap: 0.8mm; }
.part { border: 0.25mm solid #000; padding: 0.6mm 0.8mm; min-width: 0; }
.part .k { display: flex; justify-content: space-between; gap: 0.5mm; font-size: 5.8pt; white-space: nowrap; }
.part .v { font-weight: 700; font-size: 9.5pt; overflow-wrap: anywhere; }
.part .v.long { font-size: 8pt; }
.part.wide { grid-column: span 2; }
.typed { font-size: 10pt; line-height: 1.6; overflow-wrap: anywhere; flex: 0 0 auto; }
.typed.long { font-size: 8.5pt; }
.typed.longer { font-size: 7.5pt; }
.note { font-size: 8.5pt; line-height: 1.4; overflow-wrap: anywhere; flex: 0 1 auto; min-height: 0; overflow: hidden; }
.note.long { font-size: 7pt; }
.foot { display: flex; gap: 2mm; align-items: stretch; }
.foot .facts { flex: 1 1 auto; display: flex; flex-direction: column; gap: 0.8mm; min-width: 0; }
.cash { border: 0.6mm solid #000; padding: 0.8mm 1.5mm; }
.cash .k { display: flex; justify-content: space-between; gap: 1mm; font-size: 7pt; }
.cash .amount { font-weight: 700; font-size: 14pt; white-space: nowrap; }
.facts .row { display: flex; justify-content: space-between; gap: 1.5mm; }
.qr svg { display: block; width: 24mm; height: 24mm; }
`;
}

const PART_LABELS = [
  ["block", "Block", "قطعة"],
  ["street", "Street", "شارع"],
  ["avenue", "Avenue", "جادة"],
  ["house", "House", "منزل"],
  ["building", "Building", "مبنى"],
  ["floor", "Floor", "دور"],
  ["apartment", "Apartment", "شقة"],
  ["paci", "PACI", "الرقم الآلي"],
] as const;

function Arabic({ children, className }: { children: string; className?: string }) {
  return (
    <span dir="rtl" lang="ar" className={className}>
      {children}
    </span>
  );
}

function Label({ label }: { label: LabelData }) {
  const typed = label.addressAsTyped ?? "";
  return (
    <section className="label" data-delivery={label.deliveryId}>
      <div className="head">
        <span className="shop" dir="auto">
          {label.shopName}
        </span>
        <span className="order">{label.shopifyOrderName ?? ""}</span>
      </div>
      <div
        className="barcode"
        role="img"
        aria-label={`Barcode ${label.courierOrderNumber}`}
        dangerouslySetInnerHTML={{ __html: code128Svg(label.courierOrderNumber) }}
      />
      <div className="number">{label.courierOrderNumber}</div>
      <div className="to">
        <div className="caption">
          Deliver to · <Arabic>التسليم إلى</Arabic>
        </div>
        <div className="recipient">
          <span className="name" dir="auto">
            {label.recipientName}
          </span>
          <span className="phone">{label.recipientPhone}</span>
        </div>
        <div className="place">
          <span className="en">{label.area?.en ?? "Area not placed"}</span>
          <Arabic className="ar">{label.area?.ar ?? "المنطقة غير محددة"}</Arabic>
          <span className="en gov">{label.governorate?.en ?? ""}</span>
          <Arabic className="ar gov">{label.governorate?.ar ?? ""}</Arabic>
        </div>
        <div className="parts">
          {PART_LABELS.map(([key, en, ar]) => (
            <div key={key} className={key === "paci" ? "part wide" : "part"}>
              <div className="k">
                <span>{en}</span>
                <Arabic>{ar}</Arabic>
              </div>
              <div className={(label.parts[key]?.length ?? 0) > 10 ? "v long" : "v"} dir="auto">
                {label.parts[key] ?? "—"}
              </div>
            </div>
          ))}
        </div>
        {typed ? (
          <div
            className={
              typed.length > 260 ? "typed longer" : typed.length > 140 ? "typed long" : "typed"
            }
            dir="auto"
          >
            {typed}
          </div>
        ) : null}
        {label.customerNote ? (
          <div className={label.customerNote.length > 160 ? "note long" : "note"} dir="auto">
            <span className="caption">
              Note · <Arabic>ملاحظة</Arabic>:
            </span>{" "}
            {label.customerNote}
          </div>
        ) : null}
      </div>
      <div className="foot">
        <div className="facts">
          {label.cash.kind === "collect" ? (
            <div className="cash">
              <div className="k">
                <span>Collect on delivery</span>
                <Arabic>تحصيل عند التسليم</Arabic>
              </div>
              <div className="amount">{label.cash.text}</div>
            </div>
          ) : (
            <div className="cash">
              <div className="k">
                <span>Payment</span>
                <Arabic>الدفع</Arabic>
              </div>
              <div className="amount">
                Paid · <Arabic>مدفوع</Arabic>
              </div>
            </div>
          )}
          <div className="row">
            <span>
              Pieces · <Arabic>القطع</Arabic>: <b>{label.pieces ?? "—"}</b>
            </span>
            <span>
              Weight · <Arabic>الوزن</Arabic>: <b>{label.weight ?? "—"}</b>
            </span>
          </div>
          <div className="row">
            <span>
              Pickup · <Arabic>الاستلام</Arabic>: <b>{label.pickupDate ?? "—"}</b>
            </span>
          </div>
        </div>
        {label.trackingUrl ? (
          <div
            className="qr"
            role="img"
            aria-label="Tracking link"
            dangerouslySetInnerHTML={{ __html: qrCodeSvg(label.trackingUrl) }}
          />
        ) : null}
      </div>
    </section>
  );
}
