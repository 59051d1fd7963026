-- Home counts the deliveries the missed-fulfillment check recovered (ADR 0046).
CREATE INDEX "Delivery_shop_source_state_idx" ON "Delivery"("shop", "source", "state");
