import type { UserErrorRecord } from "./records";

/** Misuse of the store's own API (an unknown order, nothing left to fulfill...). */
export class StandInError extends Error {
  constructor(
    message: string,
    readonly userErrors: UserErrorRecord[] = [],
  ) {
    super(message);
    this.name = "StandInError";
  }
}
