-- The language of a user's e-mails and of the shop once they sign in (issue 41). Null:
-- never chosen (English). A nullable column without a default is metadata only.
-- AlterTable
ALTER TABLE "User" ADD COLUMN     "locale" VARCHAR(8);
