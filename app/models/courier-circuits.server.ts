import { Prisma } from "@prisma/client";
import { CLOSED_CIRCUIT, type CircuitName, type CircuitState } from "../courier/circuit";
import prisma from "../db.server";

/**
 * The courier accounts' circuit breakers (ADR 0019), in the database so that every worker process
 * sees the same one. Reads are one primary-key lookup; every change is a compare-and-set on the
 * row's version, retried on a lost race, so two processes counting failures at once lose none.
 */
export interface CircuitKey {
  shop: string;
  environment: string;
  circuit: CircuitName;
}

type Row = CircuitState & { version: number };

async function readRow(key: CircuitKey): Promise<Row | null> {
  const row = await prisma.courierCircuit.findUnique({ where: { shop_environment_circuit: key } });
  if (!row) return null;
  return {
    state: row.state === "open" ? "open" : "closed",
    failures: row.failures,
    opens: row.opens,
    openUntil: row.openUntil,
    trialUntil: row.trialUntil,
    lastError: row.lastError,
    version: row.version,
  };
}

export async function readCircuit(key: CircuitKey): Promise<CircuitState> {
  return (await readRow(key)) ?? CLOSED_CIRCUIT;
}

/**
 * Applies `change` to the circuit as it is in the database, atomically: `change` returns the new
 * state, or null to leave it alone (then the state read is returned). Returns the state written.
 */
export async function changeCircuit(
  key: CircuitKey,
  change: (current: CircuitState) => CircuitState | null,
): Promise<{ state: CircuitState; changed: boolean }> {
  for (let attempt = 0; ; attempt += 1) {
    const current = await readRow(key);
    const next = change(current ?? CLOSED_CIRCUIT);
    if (!next) return { state: current ?? CLOSED_CIRCUIT, changed: false };
    const data = {
      state: next.state,
      failures: next.failures,
      opens: next.opens,
      openUntil: next.openUntil,
      trialUntil: next.trialUntil,
      lastError: next.lastError?.slice(0, 500) ?? null,
    };
    if (current) {
      const { count } = await prisma.courierCircuit.updateMany({
        where: { ...key, version: current.version },
        data: { ...data, version: current.version + 1 },
      });
      if (count === 1) return { state: next, changed: true };
    } else {
      try {
        await prisma.courierCircuit.create({ data: { ...key, ...data } });
        return { state: next, changed: true };
      } catch (error) {
        if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002"))
          throw error;
      }
    }
    // Another process changed it between the read and the write: read it again.
    if (attempt >= 20) throw new Error(`The courier circuit of ${key.shop} keeps changing.`);
  }
}

/** A working key was just saved (the courier answered): the shop's circuits close. */
export async function closeCircuits(shop: string): Promise<void> {
  await prisma.courierCircuit.deleteMany({ where: { shop } });
}
