import prisma from "../db.server";

/** Liveness and readiness for load balancers: answers 200 when the database answers. */
export const loader = async () => {
  try {
    await prisma.$queryRaw`SELECT 1`;
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch {
    return Response.json({ status: "database unavailable" }, { status: 503 });
  }
};
