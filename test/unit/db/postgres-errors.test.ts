import { describe, expect, it } from "vitest";
import { isConnectionLost } from "../../../app/db/postgres-errors";

function pgError(code: string, message = "error") {
  return Object.assign(new Error(message), { code });
}

describe("isConnectionLost", () => {
  it("is true for a backend the server ended", () => {
    expect(
      isConnectionLost(pgError("57P01", "terminating connection due to administrator command")),
    ).toBe(true);
  });

  it("is true for a connection that closed under a query", () => {
    expect(isConnectionLost(new Error("Connection terminated unexpectedly"))).toBe(true);
  });

  it("is false for a statement the server refused", () => {
    expect(isConnectionLost(pgError("23505", "duplicate key value"))).toBe(false);
    expect(isConnectionLost(pgError("40P01", "deadlock detected"))).toBe(false);
  });
});
