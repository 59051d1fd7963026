import type { Prisma } from "@prisma/client";
import prisma, { databaseProvider } from "../db.server";
import { parseState, STATE_LABELS, type DeliveryState } from "../deliveries/domain/states";
import type { CsvValue } from "../exports/csv";
import { tabWhere } from "./delivery-list.server";

/**
 * The deliveries list as rows for a CSV export, with the list page's filters, read a page at a
 * time by a keyset on (createdAt, id) so an export of any size holds one page in memory and rows
 * written meanwhile neither repeat nor shift it.
 */
export interface DeliveryExportQuery {
  shop: string;
  state?: DeliveryState | "attention";
  search?: string;
  now?: Date;
}

export const DELIVERY_EXPORT_HEADER = [
  "Order",
  "Courier order number",
  "Status",
  "Why",
  "Cash to collect (KWD)",
  "Courier status",
  "Tracking link",
  "Sent on",
  "Last change",
];

const EXPORT_PAGE = 1_000;

const exportSelect = {
  id: true,
  orderName: true,
  courierOrderNumber: true,
  state: true,
  stateReason: true,
  cashToCollect: true,
  courierStatus: true,
  trackingUrl: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.DeliverySelect;

type ExportedDelivery = Prisma.DeliveryGetPayload<{ select: typeof exportSelect }>;

/** The same filters as the deliveries page (listDeliveries), order aside. */
export function deliveryExportWhere(query: DeliveryExportQuery): Prisma.DeliveryWhereInput {
  const contains = (text: string) =>
    databaseProvider() === "postgresql"
      ? ({ contains: text, mode: "insensitive" } as { contains: string })
      : { contains: text };
  return {
    shop: query.shop,
    ...(query.state === "attention"
      ? tabWhere("attention", query.now ?? new Date())
      : query.state
        ? { state: query.state }
        : {}),
    ...(query.search
      ? {
          AND: [
            {
              OR: [
                { orderName: contains(query.search) },
                { courierOrderNumber: contains(query.search) },
                { reference: contains(query.search) },
              ],
            },
          ],
        }
      : {}),
  };
}

const kuwaitTime = (at: Date) =>
  new Date(at.getTime() + 3 * 3_600_000).toISOString().slice(0, 16).replace("T", " ");

export function deliveryExportRow(d: ExportedDelivery): CsvValue[] {
  return [
    d.orderName,
    d.courierOrderNumber,
    STATE_LABELS[parseState(d.state)],
    d.stateReason,
    d.cashToCollect,
    d.courierStatus,
    d.trackingUrl,
    kuwaitTime(d.createdAt),
    kuwaitTime(d.updatedAt),
  ];
}

/** Newest first, a page of rows at a time. */
export async function* deliveryExportBatches(
  query: DeliveryExportQuery,
  pageSize = EXPORT_PAGE,
): AsyncGenerator<CsvValue[][]> {
  const where = deliveryExportWhere(query);
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const page: ExportedDelivery[] = await prisma.delivery.findMany({
      where: after
        ? {
            AND: [
              where,
              {
                OR: [
                  { createdAt: { lt: after.createdAt } },
                  { createdAt: after.createdAt, id: { lt: after.id } },
                ],
              },
            ],
          }
        : where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: pageSize,
      select: exportSelect,
    });
    if (page.length === 0) return;
    yield page.map(deliveryExportRow);
    if (page.length < pageSize) return;
    const last = page[page.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}
