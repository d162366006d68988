-- Single sign-on with OpenID Connect (issue 31; docs/sso.md). Hand-written.
-- An entity's identity provider, set by the superadmin (the landlord's comes from OIDC_* settings).
CREATE TABLE "sso_providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity" text NOT NULL UNIQUE REFERENCES "entities"("name") ON DELETE cascade ON UPDATE cascade,
	"label" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret" text NOT NULL,
	"claim" text DEFAULT 'email' NOT NULL,
	"auto_create" boolean DEFAULT false NOT NULL,
	"default_subtype" text DEFAULT 'developer' NOT NULL,
	"default_access" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- A person at an issuer (its `sub`) signed in as an account; one link an account an issuer. The
-- same person may hold accounts in several entities: a lookup always names the entity too.
CREATE TABLE "sso_links" (
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("account_id", "issuer")
);
--> statement-breakpoint
CREATE INDEX "sso_links_subject_idx" ON "sso_links" USING btree ("issuer", "subject");
--> statement-breakpoint
-- A sign-in under way (state, nonce, PKCE verifier), then its one-time hand-off code for the
-- console; in the database so that any instance can finish it.
CREATE TABLE "sso_flows" (
	"state" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"return_to" text,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_handoffs" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"expires_at" timestamp with time zone NOT NULL
);
