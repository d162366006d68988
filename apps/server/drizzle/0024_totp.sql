-- Two-factor sign-in with TOTP (issue 31; docs/two-factor.md). Hand-written. 0022_totp is an empty
-- reservation that stays as it is.
-- An account's authenticator: the shared secret (server-side only, never returned after enrolment),
-- confirmed once a first code matched, and the last time step a code was accepted for, so a code is
-- refused when replayed on any instance.
CREATE TABLE "account_totp" (
	"account_id" uuid PRIMARY KEY NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"secret" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The ten single-use recovery codes given at enrolment: their hashes, and when each was spent.
CREATE TABLE "totp_recovery_codes" (
	"account_id" uuid NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	PRIMARY KEY ("account_id", "code_hash")
);
--> statement-breakpoint
-- A password sign-in waiting for its second step: `verify` (a code) or `enrol` (an account that
-- must enrol first). Short-lived; in the database so that any instance can finish it.
CREATE TABLE "totp_challenges" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"kind" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Who must use a second factor: the admins of an entity (scope = the entity's name, set by its
-- admin), or the superadmins (scope = '', set by a superadmin).
CREATE TABLE "totp_requirements" (
	"scope" text PRIMARY KEY NOT NULL,
	"set_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
