import { z } from "zod";
import { runAdminOperation, userErrorsMessage, type AdminGraphql } from "./graphql";

/**
 * The Admin operations of the checkout rates' carrier service (issue 28, ADR 0063): find the
 * app's service, create it, update (re-activate) it, delete it, read it. Needs `write_shipping`;
 * Shopify refuses to create one on a plan without carrier-calculated shipping.
 */

const userErrors = z.array(
  z.object({
    field: z.array(z.string()).nullable().optional(),
    message: z.string(),
    code: z.string().nullable().optional(),
  }),
);

const carrierService = z.object({
  id: z.string(),
  name: z.string().nullable(),
  callbackUrl: z.string().nullable(),
  active: z.boolean(),
});

export type CarrierService = z.infer<typeof carrierService>;

/** What Shopify answered a create or update: the service, or its own words for the refusal. */
export type CarrierServiceReply =
  { ok: true; service: CarrierService } | { ok: false; refusal: string };

const LIST = `#graphql
  query CheckoutRatesCarrierServices {
    carrierServices(first: 50) {
      nodes { id name callbackUrl active }
    }
  }`;

/** The shop's carrier services (any app's: the caller picks its own by URL or name). */
export async function listCarrierServices(admin: AdminGraphql): Promise<CarrierService[]> {
  const data = await runAdminOperation(
    admin,
    "CheckoutRatesCarrierServices",
    LIST,
    z.object({ carrierServices: z.object({ nodes: z.array(carrierService) }) }),
  );
  return data.carrierServices.nodes;
}

const READ = `#graphql
  query CheckoutRatesCarrierService($id: ID!) {
    carrierService(id: $id) { id name callbackUrl active }
  }`;

/** One service by id; null when Shopify has none (deleted in the admin, or the app reinstalled). */
export async function readCarrierService(
  admin: AdminGraphql,
  id: string,
): Promise<CarrierService | null> {
  const data = await runAdminOperation(
    admin,
    "CheckoutRatesCarrierService",
    READ,
    z.object({ carrierService: carrierService.nullable() }),
    { id },
  );
  return data.carrierService;
}

const CREATE = `#graphql
  mutation CheckoutRatesCarrierServiceCreate($input: DeliveryCarrierServiceCreateInput!) {
    carrierServiceCreate(input: $input) {
      carrierService { id name callbackUrl active }
      userErrors { field message code }
    }
  }`;

export async function createCarrierService(
  admin: AdminGraphql,
  input: { name: string; callbackUrl: string },
): Promise<CarrierServiceReply> {
  const data = await runAdminOperation(
    admin,
    "CheckoutRatesCarrierServiceCreate",
    CREATE,
    z.object({
      carrierServiceCreate: z.object({ carrierService: carrierService.nullable(), userErrors }),
    }),
    { input: { ...input, active: true, supportsServiceDiscovery: true } },
  );
  return reply(data.carrierServiceCreate);
}

const UPDATE = `#graphql
  mutation CheckoutRatesCarrierServiceUpdate($input: DeliveryCarrierServiceUpdateInput!) {
    carrierServiceUpdate(input: $input) {
      carrierService { id name callbackUrl active }
      userErrors { field message code }
    }
  }`;

/** Points the service at `callbackUrl` under `name` and switches it on. */
export async function activateCarrierService(
  admin: AdminGraphql,
  input: { id: string; name: string; callbackUrl: string },
): Promise<CarrierServiceReply> {
  const data = await runAdminOperation(
    admin,
    "CheckoutRatesCarrierServiceUpdate",
    UPDATE,
    z.object({
      carrierServiceUpdate: z.object({ carrierService: carrierService.nullable(), userErrors }),
    }),
    { input: { ...input, active: true } },
  );
  return reply(data.carrierServiceUpdate);
}

const DELETE = `#graphql
  mutation CheckoutRatesCarrierServiceDelete($id: ID!) {
    carrierServiceDelete(id: $id) {
      deletedId
      userErrors { field message code }
    }
  }`;

/** Deletes the service: the deleted id, or Shopify's words when it refused. */
export async function deleteCarrierService(
  admin: AdminGraphql,
  id: string,
): Promise<{ ok: true } | { ok: false; refusal: string }> {
  const data = await runAdminOperation(
    admin,
    "CheckoutRatesCarrierServiceDelete",
    DELETE,
    z.object({
      carrierServiceDelete: z.object({ deletedId: z.string().nullable(), userErrors }),
    }),
    { id },
  );
  const result = data.carrierServiceDelete;
  if (result.userErrors.length === 0) return { ok: true };
  return { ok: false, refusal: userErrorsMessage(result.userErrors) };
}

function reply(payload: {
  carrierService: CarrierService | null;
  userErrors: z.infer<typeof userErrors>;
}): CarrierServiceReply {
  if (payload.carrierService && payload.userErrors.length === 0)
    return { ok: true, service: payload.carrierService };
  return {
    ok: false,
    refusal: userErrorsMessage(payload.userErrors) || "no carrier service was returned",
  };
}
