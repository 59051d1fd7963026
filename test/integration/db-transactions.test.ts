import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("one SQLite connection shared by transactions and everything else", () => {
  it("a write made while another task's transaction is open is not rolled back with it", async () => {
    const failing = prisma
      .$transaction(async (tx) => {
        await tx.shopSettings.create({ data: { shop: "rolled-back.myshopify.com" } });
        // The transaction awaits between statements; other work runs meanwhile.
        await sleep(30);
        throw new Error("this transaction rolls back");
      })
      .catch((error: Error) => error.message);
    await sleep(5);
    await prisma.shopSettings.create({ data: { shop: "kept.myshopify.com" } });

    expect(await failing).toBe("this transaction rolls back");
    const shops = (await prisma.shopSettings.findMany()).map((s) => s.shop);
    expect(shops).toEqual(["kept.myshopify.com"]);
  });

  it("reads outside a transaction do not see its uncommitted writes", async () => {
    let seenInside: number | undefined;
    const open = prisma
      .$transaction(async (tx) => {
        await tx.shopSettings.create({ data: { shop: "pending.myshopify.com" } });
        await sleep(20);
        seenInside = await tx.shopSettings.count();
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    await sleep(5);
    // Waits for the transaction to end: it never sees the row that was rolled back.
    const outside = await prisma.shopSettings.count();
    await open;
    expect(seenInside).toBe(1);
    expect(outside).toBe(0);
  });

  it("many tasks mixing transactions and plain writes lose nothing", async () => {
    const work = Array.from({ length: 40 }, (_, i) =>
      i % 2
        ? prisma.shopSettings.create({ data: { shop: `plain-${i}.myshopify.com` } })
        : prisma
            .$transaction(async (tx) => {
              await tx.shopSettings.create({ data: { shop: `tx-${i}.myshopify.com` } });
              await sleep(1);
              if (i % 4 === 0) throw new Error("rolled back");
            })
            .catch(() => undefined),
    );
    await Promise.all(work);
    const shops = new Set((await prisma.shopSettings.findMany()).map((s) => s.shop));
    for (let i = 0; i < 40; i += 1) {
      const expected = i % 2 ? `plain-${i}.myshopify.com` : `tx-${i}.myshopify.com`;
      expect(shops.has(expected), expected).toBe(i % 2 === 1 || i % 4 !== 0);
    }
  });
});
