import path from 'node:path';
import { z } from 'zod';

const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional())
  .optional();

/** A message budget `rate,burst`: messages a second sustained, and at once (docs/device-protocol.md). */
const budget = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .pipe(z.string().regex(/^\s*\d+(\.\d+)?\s*,\s*\d+\s*$/, 'expected rate,burst (e.g. 20,200)'))
    .transform((v) => {
      const [rate, burst] = v.split(',').map(Number) as [number, number];
      return { rate, burst: Math.max(1, burst) };
    });

export const EnvSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: optionalUrl,
    MQTT_URL: optionalUrl,
    MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
    /** With MQTT_URL: how devices are authenticated on that broker (docs/operations.md). */
    MQTT_DEVICE_AUTH: z.enum(['mosquitto-dynsec', 'broker']).default('mosquitto-dynsec'),
    /** With MQTT_URL: the shared-subscription group API instances split device traffic in. */
    MQTT_SHARE_GROUP: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/)
      .default('fleet-api'),
    COMMAND_REPLY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /**
     * At shutdown, calls waiting for a device's reply get this long for it; then they answer 503
     * with Retry-After. Kept well under the 8 s after which the process exits regardless.
     */
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(5_000).default(2_000),
    /** Embedded broker: a socket not signed in this long after it opened is closed. */
    MQTT_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** Embedded broker: sockets open at once without a completed sign-in, overall and from one address. */
    MQTT_MAX_UNAUTHENTICATED: z.coerce.number().int().min(1).default(2_000),
    MQTT_MAX_UNAUTHENTICATED_PER_ADDRESS: z.coerce.number().int().min(1).default(500),
    /** Embedded broker: wrong device secrets before a back-off, per device id and address, per address, per device id. */
    MQTT_AUTH_FAILURES: z.coerce.number().int().min(1).default(5),
    MQTT_AUTH_ADDRESS_FAILURES: z.coerce.number().int().min(1).default(20),
    MQTT_AUTH_DEVICE_FAILURES: z.coerce.number().int().min(1).default(100),
    /** The first back-off after too many wrong secrets; each next one doubles, up to 5 minutes. */
    MQTT_AUTH_BACKOFF_MS: z.coerce.number().int().min(10).max(300_000).default(1_000),
    /** Per-device message budgets by topic, `rate,burst` (docs/device-protocol.md "Budgets and limits"). */
    MQTT_BUDGET_STATE: budget('20,40'),
    MQTT_BUDGET_REPLY: budget('50,500'),
    MQTT_BUDGET_EVENTS: budget('100,200'),
    MQTT_BUDGET_BEACON: budget('500,1000'),
    /** A device over its budget this long without a pause is cut off for MQTT_BUDGET_COOLDOWN_S. */
    MQTT_BUDGET_CUTOFF_S: z.coerce.number().min(0.1).max(3600).default(10),
    MQTT_BUDGET_COOLDOWN_S: z.coerce.number().min(1).max(86_400).default(60),
    REDIS_URL: optionalUrl,
    /** A request body may pause this long between bytes before the connection is closed (408). */
    BODY_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
    /** A request body must be complete this long after its headers (uploads included). */
    BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(300_000),
    /** HTTP rate limits on (docs/decisions/2026-11-25-http-rate-limits.md); `false` only for benches. */
    RATE_LIMIT_ENABLED: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    /** The window every RATE_LIMIT_* count runs over. */
    RATE_LIMIT_WINDOW_S: z.coerce.number().int().min(1).max(3600).default(60),
    /** Requests per window to API routes, per bearer token (or per address without one). */
    RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(20_000),
    /** Sign-ins per window per address (failed ones are also throttled per account). */
    RATE_LIMIT_LOGIN_MAX: z.coerce.number().int().min(1).default(120),
    /** Token refreshes per window per address. */
    RATE_LIMIT_REFRESH_MAX: z.coerce.number().int().min(1).default(60),
    /** Signed downloads per window per address. */
    RATE_LIMIT_DOWNLOAD_MAX: z.coerce.number().int().min(1).default(600),
    /** Kiosk manager calls per window, per bearer token (or per address without one). */
    RATE_LIMIT_KIOSK_MAX: z.coerce.number().int().min(1).default(300),
    /** Different bearer tokens refused (401) per window from one address before it may bring no new one. */
    RATE_LIMIT_AUTH_FAILURES_MAX: z.coerce.number().int().min(1).default(60),
    /** A Socket.IO connection may send this many packets a second, sustained (docs/decisions/2026-11-25-live-revocation.md). */
    SOCKET_PACKETS_PER_S: z.coerce.number().int().min(1).max(100_000).default(20),
    /** ... and this many at once; past both it is cut. */
    SOCKET_PACKET_BURST: z.coerce.number().int().min(10).max(1_000_000).default(100),
    /** Every open socket and event stream has its token, session, account and entity read again this often. */
    LIVE_RECHECK_S: z.coerce.number().int().min(1).max(3600).default(60),
    /** Beacon events (and sent-reminder records) older than this are pruned. */
    BEACON_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    /** Raw telemetry history (every report, connect and disconnect) is kept this many days, then whole days are dropped. */
    TELEMETRY_RAW_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    /** Hourly telemetry aggregates are kept this many days, then whole months are dropped. */
    TELEMETRY_HOURLY_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),
    /** Audit entries older than this are deleted (hourly); nothing else ever deletes one (docs/audit.md). */
    AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
    /** Alerts' time-based sweep (silent devices, start and clear delays) runs this often; 0: never (docs/alerts.md). */
    ALERT_SWEEP_S: z.coerce.number().int().min(0).max(3600).default(30),
    /** Webhook deliveries and alert e-mails due are looked for this often; 0: never (tests drive them; docs/webhooks.md). */
    DELIVERY_POLL_MS: z.coerce.number().int().min(0).max(60_000).default(500),
    /** The SMTP server alert e-mails go through (smtp://user:pass@host:587, smtps://…); unset: no e-mail. */
    SMTP_URL: optionalUrl,
    /** The From of alert e-mails. */
    SMTP_FROM: z.string().trim().min(3).max(254).default('Fleet Console <fleet@localhost>'),
    /** Alerts a rule raises are e-mailed together once none came for this long (at most 10 minutes after the first). */
    ALERT_EMAIL_QUIET_S: z.coerce.number().int().min(0).max(600).default(60),
    /** A sighting at least this long after a reminder, at the same gateway, confirms the visit (docs/decisions.md). */
    BEACON_CONFIRM_AFTER_S: z.coerce.number().int().min(0).max(3600).default(60),
    /** Sightings of a beacon at a gateway within this long of its stored event are not stored again (0: store all). */
    BEACON_MERGE_WINDOW_S: z.coerce.number().min(0).max(3600).default(10),
    /** Stored beacon events an entity keeps at most; past it the oldest are deleted. */
    BEACON_EVENTS_QUOTA: z.coerce.number().int().min(1).default(500_000),
    ADMIN_USERNAME: z
      .string()
      .regex(/^[A-Za-z0-9_]+$/)
      .default('admin'),
    ADMIN_PASSWORD: z.string().min(6).optional(),
    JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
    PUBLIC_URL: optionalUrl,
    /** The landlord's OpenID Connect provider (docs/sso.md): superadmins sign in through it; unset: none. */
    OIDC_ISSUER: optionalUrl,
    OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    /** The login page's button: "Sign in with {OIDC_LABEL}". */
    OIDC_LABEL: z.string().trim().min(1).max(64).default('Single sign-on'),
    /** What matches a superadmin: the ID token's `email`, or its `sub` once linked. */
    OIDC_CLAIM: z.enum(['email', 'sub']).default('email'),
    KIOSK_MANAGER_URL: optionalUrl,
    /** Where the kiosk manager listens when it runs on its own (kiosk-manager/main.ts). */
    KIOSK_MANAGER_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
    ACCESS_TOKEN_TTL_S: z.coerce.number().int().min(30).default(900),
    REFRESH_TOKEN_TTL_S: z.coerce
      .number()
      .int()
      .min(60)
      .default(7 * 24 * 3600),
    REFRESH_FAMILY_TTL_S: z.coerce
      .number()
      .int()
      .min(60)
      .default(30 * 24 * 3600),
    /** S3-compatible blob storage for files and firmware; DATA_DIR/blobs when unset. */
    S3_ENDPOINT: optionalUrl,
    S3_BUCKET: z.string().trim().min(1).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    /** How long a device has to finish a firmware update before the command counts as timed out. */
    DFU_TIMEOUT_S: z.coerce.number().int().min(10).max(86_400).default(1800),
    /** A provisioning session that hears nothing from its device this long ends with a `timeout` event. */
    PROVISION_TIMEOUT_MS: z.coerce.number().int().min(200).max(3_600_000).default(120_000),
    WEB_DIST: z.string().optional(),
    TRUST_PROXY: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    /** `/metrics` on the API's port answers a `Bearer <METRICS_TOKEN>` only; unset: not there (docs/metrics.md). */
    METRICS_TOKEN: z.string().trim().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
    /** `/metrics` also on its own listener at this port (with the token too when it is set); unset: none. */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .refine((c) => !c.OIDC_ISSUER || (c.OIDC_CLIENT_ID && c.OIDC_CLIENT_SECRET), {
    path: ['OIDC_ISSUER'],
    message: 'OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET',
  })
  .refine((c) => !c.S3_ENDPOINT || (c.S3_BUCKET && c.S3_ACCESS_KEY_ID && c.S3_SECRET_ACCESS_KEY), {
    path: ['S3_ENDPOINT'],
    message: 'S3_ENDPOINT needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY',
  });

export type Config = z.infer<typeof EnvSchema> & { dataDir: string };

/** Reads the configuration from the environment; throws a readable error on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
}
