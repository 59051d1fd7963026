import { displayKwd, fils } from "../domain/kwd";
import { backoffMs } from "../domain/lease-policy";
import {
  firstSendableAt,
  kuwaitDayStart,
  templateParameters,
  type SkipReason,
} from "../domain/shopper-message";
import { messageSubject } from "../models/message-subject.server";
import { getShopSettings } from "../models/shop.server";
import type { WhatsAppSender } from "../models/whatsapp-account.server";
import {
  claimDueMessages,
  countMessagesSentSince,
  saveLeasedMessage,
  saveSentMessage,
  type MessageRow,
} from "../models/shopper-messages.server";
import { sendTemplate, WhatsAppError, WhatsAppRateLimitedError } from "../whatsapp";

/**
 * The message loop (issue 27, ADR 0058): sends the WhatsApp messages the outbox owes, one copy
 * each. The rules, in order: a question answered or closed meanwhile is not messaged; no number,
 * no WhatsApp connection or an opted-out shopper, not sent (and said why); nothing in the quiet
 * hours (the message waits for the morning); at most the shop's cap per order per Kuwaiti day
 * (the rest wait for the next day).
 *
 * One copy: the row is `sending` (committed) before WhatsApp is called, and the call carries the
 * row's id as `biz_opaque_callback_data`. An answer saying it was not sent (refused before
 * sending, 429) makes it queued again; an answer that never came, or a 5xx, leaves it
 * `unconfirmed`: Meta's status callback for that id confirms it went (no second copy); only when
 * no callback came in the wait, and the callback address is verified (so one would have come),
 * is it sent again. A worker killed mid-send leaves `sending`, taken as unconfirmed once its
 * lease runs out.
 */
/** The shop's number, ready to send (models/whatsapp-account.server.ts reads and opens it). */
export type ReadySender = Extract<WhatsAppSender, { status: "ready" }>;

export interface MessageLoopDependencies {
  owner: string;
  senderFor(shop: string): Promise<WhatsAppSender>;
  isOptedOut(shop: string, phone: string): Promise<boolean>;
  /** WHATSAPP_API_URL. */
  apiUrl?: string;
  now?: () => Date;
  leaseMs?: number;
  /** How long a send without an answer waits for its status callback (default 10 minutes). */
  confirmWaitMs?: number;
  fetch?: typeof fetch;
}

const LEASE_MS = 60_000;
const CONFIRM_WAIT_MS = 10 * 60_000;
/** Sends refused with a retry allowed, before the message is given up as failed. */
const MAX_ATTEMPTS = 8;
const MAX_ERROR = 400;

const nowOf = (deps: MessageLoopDependencies) => deps.now?.() ?? new Date();

/** One pass: leases up to `limit` due messages and does what each needs. How many it handled. */
export async function runDueMessages(deps: MessageLoopDependencies, limit = 10): Promise<number> {
  const rows = await claimDueMessages(deps.owner, limit, deps.leaseMs ?? LEASE_MS, nowOf(deps));
  // One at a time: the daily cap counts what the previous one sent.
  for (const row of rows) {
    try {
      await handle(row, deps);
    } catch (error) {
      // A database failure: the lease runs out and the row is taken again.
      console.error(
        "WhatsApp message failed:",
        error instanceof Error ? error.name : "unknown error",
      );
    }
  }
  return rows.length;
}

async function handle(row: MessageRow, deps: MessageLoopDependencies): Promise<void> {
  const now = nowOf(deps);
  if (row.state === "sending") {
    // Its worker stopped between marking it and hearing back: it may have gone.
    await saveLeasedMessage(row, deps.owner, {
      state: "unconfirmed",
      nextAttemptAt: new Date(now.getTime() + (deps.confirmWaitMs ?? CONFIRM_WAIT_MS)),
    });
    return;
  }
  const sender = await deps.senderFor(row.shop);
  if (row.state === "unconfirmed") {
    // No callback in the wait: it did not go, unless nobody would have told us.
    if (sender.status === "ready" && sender.webhookVerified) {
      const leaseUntil = new Date(now.getTime() + (deps.leaseMs ?? LEASE_MS));
      const requeued = await saveLeasedMessage(row, deps.owner, {
        state: "queued",
        nextAttemptAt: now,
        leaseUntil,
      });
      return requeued ? send({ ...row, state: "queued" }, sender, deps) : undefined;
    }
    await saveLeasedMessage(row, deps.owner, {
      state: "failed",
      failedAt: now,
      toPhone: null,
      nextAttemptAt: null,
      lastError:
        "WhatsApp did not answer, and without its status callbacks the app cannot tell whether the message went, so it was not sent again (the customer must not get it twice). Register the callback address in Settings.",
    });
    return;
  }
  if (sender.status !== "ready") return skip(row, deps, "not_connected");
  return send(row, sender, deps);
}

async function skip(row: MessageRow, deps: MessageLoopDependencies, reason: SkipReason) {
  await saveLeasedMessage(row, deps.owner, {
    state: "skipped",
    skipReason: reason,
    toPhone: null,
    nextAttemptAt: null,
  });
}

async function send(
  row: MessageRow,
  sender: ReadySender,
  deps: MessageLoopDependencies,
): Promise<void> {
  const now = nowOf(deps);
  const subject = await messageSubject(row, now);
  if (!subject?.open) return skip(row, deps, "question_closed");
  if (!row.toPhone) return skip(row, deps, "no_mobile");
  if (await deps.isOptedOut(row.shop, row.toPhone)) return skip(row, deps, "opted_out");
  const template = sender.templates[row.purpose]?.[row.language];
  if (!template) return skip(row, deps, "no_template");

  const sendable = firstSendableAt(now, sender.quiet);
  if (sendable > now) {
    await saveLeasedMessage(row, deps.owner, { notBefore: sendable, nextAttemptAt: sendable });
    return;
  }
  const dayStart = kuwaitDayStart(now);
  if ((await countMessagesSentSince(row, dayStart)) >= sender.dailyCapPerOrder) {
    const tomorrow = firstSendableAt(new Date(dayStart.getTime() + 24 * 3_600_000), sender.quiet);
    await saveLeasedMessage(row, deps.owner, { notBefore: tomorrow, nextAttemptAt: tomorrow });
    return;
  }

  const settings = await getShopSettings(row.shop);
  const shopName = settings?.trackingShopName?.trim() || settings?.shopifyShopName || row.shop;
  const leaseMs = deps.leaseMs ?? LEASE_MS;
  // Committed before the call: from here a crash means "may have gone", never "send again".
  const marked = await saveLeasedMessage(row, deps.owner, {
    state: "sending",
    attempts: row.attempts + 1,
    sentAt: now,
    nextAttemptAt: new Date(now.getTime() + leaseMs),
    leaseUntil: new Date(now.getTime() + leaseMs),
  });
  if (!marked) return;
  const sending: MessageRow = { ...row, state: "sending", attempts: row.attempts + 1 };
  try {
    const sent = await sendTemplate(
      {
        phoneNumberId: sender.phoneNumberId,
        accessToken: sender.accessToken,
        to: row.toPhone,
        template: {
          name: template,
          languageCode: row.language,
          bodyParameters: templateParameters(row.purpose, {
            shopName,
            orderName: row.orderName ?? "",
            cash: subject.cashFils === null ? undefined : displayKwd(fils(subject.cashFils)),
            token: subject.token,
          }),
          buttonUrlParameter: subject.token,
        },
        callbackData: row.id,
      },
      { baseUrl: deps.apiUrl, fetch: deps.fetch, timeoutMs: Math.min(10_000, leaseMs / 2) },
    );
    await saveSentMessage(sending, deps.owner, sent.messageId, now);
  } catch (error) {
    await afterFailedSend(sending, deps, error);
  }
}

async function afterFailedSend(row: MessageRow, deps: MessageLoopDependencies, error: unknown) {
  const now = nowOf(deps);
  const words = (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR);
  if (!(error instanceof WhatsAppError) || error.outcome === "unknown") {
    await saveLeasedMessage(row, deps.owner, {
      state: "unconfirmed",
      lastError: words,
      nextAttemptAt: new Date(now.getTime() + (deps.confirmWaitMs ?? CONFIRM_WAIT_MS)),
    });
    return;
  }
  if (error.retryable && row.attempts < MAX_ATTEMPTS) {
    const waitMs =
      error instanceof WhatsAppRateLimitedError && error.retryAfterMs !== undefined
        ? error.retryAfterMs
        : backoffMs(row.attempts, 5_000, 30 * 60_000);
    await saveLeasedMessage(row, deps.owner, {
      state: "queued",
      sentAt: null,
      lastError: words,
      nextAttemptAt: new Date(now.getTime() + waitMs),
    });
    return;
  }
  await saveLeasedMessage(row, deps.owner, {
    state: "failed",
    sentAt: null,
    failedAt: now,
    toPhone: null,
    nextAttemptAt: null,
    lastError: words,
  });
}
