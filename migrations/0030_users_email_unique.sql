-- A user's e-mail address is unique in their org, whatever its case: a unique index on (org_id, lower(email)), which also makes two concurrent creates of one address refuse the second.
-- Addresses already taken twice would make the index fail: the oldest user (lowest id) keeps the address, each later one gets it tagged with its id ("ann+duplicate-42@example.com"), which stays a valid, unique address the operator can find and fix.
-- Row-level security is forced on tenant tables, even for their owner; it is lifted for this one statement so every org's users are seen.
ALTER TABLE "users" NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
UPDATE "users" AS u
   SET "email" = CASE WHEN position('@' IN u."email") > 0
                      THEN split_part(u."email", '@', 1) || '+duplicate-' || u."id" || substr(u."email", position('@' IN u."email"))
                      ELSE u."email" || '+duplicate-' || u."id" END
 WHERE EXISTS (SELECT 1 FROM "users" o WHERE o."org_id" = u."org_id" AND lower(o."email") = lower(u."email") AND o."id" < u."id");
--> statement-breakpoint
ALTER TABLE "users" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree ("org_id", lower("email"));
