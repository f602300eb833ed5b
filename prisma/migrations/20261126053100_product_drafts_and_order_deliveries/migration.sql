-- Package drafts: a package is on sale from publishedAt; null is a draft (hidden from the
-- storefront, refused at placement). Only 'Create Package' makes drafts (it writes null).
-- AlterTable
ALTER TABLE "Product" ADD COLUMN     "publishedAt" TIMESTAMPTZ(3) DEFAULT CURRENT_TIMESTAMP;

-- Every package that existed was on sale: published since it was created (a few rows).
UPDATE "Product" SET "publishedAt" = "createdAt";

-- An order's webhook deliveries (subject 'order:<id>' and its transfers' 'payment:<id>'),
-- newest first, for the admin order page: WebhookDelivery's other indexes lead with the endpoint.
-- CreateIndex
CREATE INDEX IF NOT EXISTS "WebhookDelivery_subject_seq_idx" ON "WebhookDelivery"("subject", "seq");
