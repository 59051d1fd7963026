import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Unreadable } from "../deliveries/domain/json-column";
import { STATE_LABELS, deliveryState } from "../deliveries/domain/states";
import { findDeliveryForTrackingPage } from "../models/tracking-page.server";

/**
 * The public tracking page behind the URL on the Shopify fulfillment: /tracking/<token>, 128
 * random bits (ADR 0012); server.js limits how many links one client may try. The page shows the
 * parcel's progress only — no name, address or phone.
 */
export const loader = async ({ params }: LoaderFunctionArgs) => {
  const delivery = await findDeliveryForTrackingPage(params.token ?? "");
  if (!delivery?.courierOrderNumber)
    throw new Response("Unknown tracking number.", { status: 404 });
  return {
    number: delivery.courierOrderNumber,
    state: STATE_LABELS[delivery.state],
    steps: delivery.events.flatMap((e) => {
      if (e.kind === "tracking")
        return [{ at: e.at.toISOString(), message: "Handed to the courier." }];
      if (e.kind === "created" || e.kind === "reconciled")
        return [{ at: e.at.toISOString(), message: "Booked with the courier." }];
      if (e.kind !== "courier_status") return [];
      // The courier's own words for the status (Arabic in the sandbox), at the time it happened;
      // a step whose record no longer reads is left out.
      const data = e.data instanceof Unreadable ? null : e.data;
      if (data?.status === undefined) return [];
      const known = deliveryState.safeParse(data.state);
      const label = known.success ? STATE_LABELS[known.data] : data.status;
      return [
        {
          at: data.at ?? e.at.toISOString(),
          message: data.name ? `${label} — ${data.name}` : label,
        },
      ];
    }),
  };
};

export const headers = () => ({
  // The link is the key: it must not leave in a Referer header, nor be kept by shared caches.
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "private, no-store",
});

export const meta: MetaFunction = () => [
  { title: "Parcel tracking" },
  { name: "robots", content: "noindex" },
];

const when = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "Asia/Kuwait",
});

export default function Tracking() {
  const { number, state, steps } = useLoaderData<typeof loader>();
  return (
    <main
      style={{
        fontFamily: "system-ui, sans-serif",
        maxWidth: 560,
        margin: "40px auto",
        padding: "0 16px",
      }}
    >
      <h1 style={{ fontSize: 22 }}>Parcel {number}</h1>
      <p style={{ fontSize: 18 }}>{state}</p>
      <ol>
        {steps.map((step) => (
          <li key={step.at + step.message}>
            {when.format(new Date(step.at))}: {step.message}
          </li>
        ))}
      </ol>
    </main>
  );
}
