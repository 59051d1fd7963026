import { describe, expect, it } from "vitest";
import { noteDatabaseBusy } from "../../app/db/database-busy";
import { answerOf, requestScope } from "../../server/database-busy.js";

/** An Express request as server/database-busy.js reads it. */
function expressRequest(method: string, accept: string) {
  return { method, get: (name: string) => (name === "accept" ? accept : undefined) };
}

/** Runs `work` inside a request's scope, as server.js runs every route. */
function inRequest<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => requestScope()({}, {}, () => resolve(work())));
}

describe("a request answered while the database stayed locked", () => {
  it("is answered 503 with Retry-After instead of the route's 500", async () => {
    const answer = await inRequest(() => {
      noteDatabaseBusy(new Error("locked"));
      return answerOf(
        expressRequest("POST", "application/json"),
        new Response(null, { status: 500 }),
      );
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("5");
  });

  it("shows a page in both languages that reloads itself", async () => {
    const answer = await inRequest(() => {
      noteDatabaseBusy(new Error("locked"));
      return answerOf(expressRequest("GET", "text/html"), new Response(null, { status: 500 }));
    });
    const page = await answer.text();
    expect(page).toContain("database is busy");
    expect(page).toContain("قاعدة بيانات التطبيق مشغولة");
    expect(page).toMatch(/http-equiv="refresh"/);
  });

  it("keeps a 500 that the database had no part in", async () => {
    const answer = await inRequest(() =>
      answerOf(expressRequest("GET", "text/html"), new Response(null, { status: 500 })),
    );
    expect(answer.status).toBe(500);
  });
});
