-- CreateIndex
CREATE INDEX "Delivery_cancelRequestedAt_idx" ON "Delivery"("cancelRequestedAt");

