/**
 * Status callbacks in the shape of Meta's "Status messages webhook reference" examples
 * (developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/status):
 * one entry per WhatsApp Business account, one change per phone number, statuses inside.
 */
const WAMID = "wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI3NTdBNUE2NjhEN0YyMkE1NjAA";

const envelope = (statuses: unknown[]) => ({
  object: "whatsapp_business_account",
  entry: [
    {
      id: "102290129340398",
      changes: [
        {
          value: {
            messaging_product: "whatsapp",
            metadata: { display_phone_number: "15550783881", phone_number_id: "106540352242922" },
            statuses,
          },
          field: "messages",
        },
      ],
    },
  ],
});

const pricing = { billable: true, pricing_model: "PMP", category: "utility" };

export const sentCallback = envelope([
  {
    id: WAMID,
    status: "sent",
    timestamp: "1750263773",
    recipient_id: "96550001234",
    conversation: { id: "4fe2a29a1f5e1b3c5ad7fa2b2e0a7a1f", origin: { type: "utility" } },
    pricing,
  },
]);

export const deliveredAndReadCallback = envelope([
  { id: WAMID, status: "delivered", timestamp: "1750263774", recipient_id: "96550001234", pricing },
  { id: WAMID, status: "read", timestamp: "1750263801", recipient_id: "96550001234" },
]);

export const failedCallback = envelope([
  {
    id: WAMID,
    status: "failed",
    timestamp: "1750263773",
    recipient_id: "96550001234",
    errors: [
      {
        code: 131026,
        title: "Message undeliverable",
        message: "Message undeliverable",
        error_data: { details: "Message Undeliverable." },
        href: "https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/",
      },
    ],
  },
]);

/** An incoming message: a change without statuses. */
export const incomingMessageCallback = {
  object: "whatsapp_business_account",
  entry: [
    {
      id: "102290129340398",
      changes: [
        {
          value: {
            messaging_product: "whatsapp",
            metadata: { display_phone_number: "15550783881", phone_number_id: "106540352242922" },
            contacts: [{ profile: { name: "Sheena Nelson" }, wa_id: "16505551234" }],
            messages: [
              {
                from: "16505551234",
                id: "wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=",
                timestamp: "1749416383",
                type: "text",
                text: { body: "Does it come in another color?" },
              },
            ],
          },
          field: "messages",
        },
      ],
    },
  ],
};

export { WAMID };
