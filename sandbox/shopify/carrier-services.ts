import { fail, type Outcome } from "./records";
import type { StoreContext } from "./store";

// The shop's carrier services (carrierServiceCreate, carrierServiceUpdate, carrierServiceDelete)
// and the plan that decides whether it may have one, as Shopify documents DeliveryCarrierService
// for 2026-10: creating one fails unless the shop is on the Advanced plan or higher, on a yearly
// plan or bought the add-on, or is a development store; a shop that moves to a plan without it
// keeps its services, deactivated.

export const SHOP_PLANS = ["basic", "shopify", "advanced", "plus", "development"] as const;
export type ShopPlan = (typeof SHOP_PLANS)[number];

export interface StandInCarrierService {
  id: number;
  name: string;
  callbackUrl: string;
  active: boolean;
  supportsServiceDiscovery: boolean;
  /** The app that made it: "app" (the one app the stand-in serves) or another one. */
  ownedBy: "app" | "other";
  createdAt: Date;
  updatedAt: Date;
}

export interface CarrierServiceInput {
  name?: string | null;
  callbackUrl?: string | null;
  active?: boolean | null;
  supportsServiceDiscovery?: boolean | null;
}

// The stand-in's words: Shopify's exact message for a shop without the feature is not documented.
export const NOT_ELIGIBLE_MESSAGE =
  "Carrier calculated shipping is not available on this shop's plan: it needs the Advanced plan or higher, a yearly plan or the carrier-calculated shipping add-on.";
const CREATE_FAILED = "CARRIER_SERVICE_CREATE_FAILED";
const UPDATE_FAILED = "CARRIER_SERVICE_UPDATE_FAILED";
const DELETE_FAILED = "CARRIER_SERVICE_DELETE_FAILED";

export class StandInShipping {
  /** The shop's plan; a development store may use carrier services (the default). */
  plan: ShopPlan = "development";
  /** The paid add-on (or a yearly plan): carrier services on a plan below Advanced. */
  carrierAddOn = false;
  private readonly services: StandInCarrierService[] = [];

  constructor(private readonly ctx: StoreContext) {}

  /** Back to a development store without carrier services (between tests). */
  reset(): void {
    this.services.splice(0);
    this.plan = "development";
    this.carrierAddOn = false;
  }

  /** Whether the shop may have an active carrier service now. */
  eligible(): boolean {
    return (
      this.plan === "advanced" ||
      this.plan === "plus" ||
      this.plan === "development" ||
      this.carrierAddOn
    );
  }

  carrierServices(): readonly StandInCarrierService[] {
    return this.services;
  }

  findCarrierService(id: number): StandInCarrierService | undefined {
    return this.services.find((s) => s.id === id);
  }

  /** The shop's one active carrier service of the app, which checkout calls (else undefined). */
  activeAppService(): StandInCarrierService | undefined {
    return this.services.find((s) => s.ownedBy === "app" && s.active);
  }

  /**
   * Moves the shop to another plan. Leaving what carrier services need deactivates every one, as
   * Shopify does on a downgrade; coming back does not reactivate them.
   */
  setPlan(plan: ShopPlan, carrierAddOn = this.carrierAddOn): void {
    if (!SHOP_PLANS.includes(plan)) throw new RangeError(`No shop plan ${String(plan)}`);
    this.plan = plan;
    this.carrierAddOn = carrierAddOn;
    if (!this.eligible()) this.deactivateAll();
  }

  /** What a downgrade does to the services: each stays, switched off. Returns those switched off. */
  deactivateAll(): StandInCarrierService[] {
    const switched = this.services.filter((s) => s.active);
    for (const service of switched) {
      service.active = false;
      service.updatedAt = this.ctx.now();
    }
    return switched;
  }

  /** A carrier service another app made (for tests that the app leaves it alone). */
  addOtherAppsService(input: { name: string; callbackUrl: string }): StandInCarrierService {
    return this.push({ ...input, active: true, supportsServiceDiscovery: true }, "other");
  }

  tryCreate(input: Required<CarrierServiceInput>): Outcome<StandInCarrierService> {
    if (!this.eligible()) return fail(null, NOT_ELIGIBLE_MESSAGE, CREATE_FAILED);
    const problem = this.inputProblem(input);
    if (problem) return fail(null, problem, CREATE_FAILED);
    return { ok: true, value: this.push(input as InputOf, "app") };
  }

  tryUpdate(id: number, input: CarrierServiceInput): Outcome<StandInCarrierService> {
    const service = this.findCarrierService(id);
    if (!service || service.ownedBy !== "app")
      return fail(null, "The carrier service could not be found.", UPDATE_FAILED);
    if (input.active === true && !this.eligible())
      return fail(null, NOT_ELIGIBLE_MESSAGE, UPDATE_FAILED);
    const problem = this.inputProblem(input, service.id);
    if (problem) return fail(null, problem, UPDATE_FAILED);
    if (input.name != null) service.name = input.name;
    if (input.callbackUrl != null) service.callbackUrl = input.callbackUrl;
    if (input.active != null) service.active = input.active;
    if (input.supportsServiceDiscovery != null)
      service.supportsServiceDiscovery = input.supportsServiceDiscovery;
    service.updatedAt = this.ctx.now();
    return { ok: true, value: service };
  }

  tryDelete(id: number): Outcome<number> {
    const index = this.services.findIndex((s) => s.id === id && s.ownedBy === "app");
    if (index < 0) return fail(null, "The carrier service could not be found.", DELETE_FAILED);
    this.services.splice(index, 1);
    return { ok: true, value: id };
  }

  private inputProblem(input: CarrierServiceInput, except?: number): string | null {
    if (input.name != null && !input.name.trim()) return "Name can't be blank.";
    if (input.callbackUrl != null && !/^https?:\/\//.test(input.callbackUrl))
      return "Callback url is not a valid URL.";
    // Shopify names a shop's carrier services uniquely (the name is what checkout shows).
    if (
      input.name != null &&
      this.services.some((s) => s.id !== except && s.name === input.name && s.ownedBy === "app")
    )
      return `${input.name} is already configured.`;
    return null;
  }

  private push(input: InputOf, ownedBy: StandInCarrierService["ownedBy"]) {
    const now = this.ctx.now();
    const service: StandInCarrierService = {
      id: this.ctx.takeId(),
      name: input.name,
      callbackUrl: input.callbackUrl,
      active: input.active,
      supportsServiceDiscovery: input.supportsServiceDiscovery,
      ownedBy,
      createdAt: now,
      updatedAt: now,
    };
    this.services.push(service);
    return service;
  }
}

type InputOf = {
  name: string;
  callbackUrl: string;
  active: boolean;
  supportsServiceDiscovery: boolean;
};
