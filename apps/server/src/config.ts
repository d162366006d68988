import path from 'node:path';
import { z } from 'zod';

const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional())
  .optional();

const EnvSchema = z
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
    REDIS_URL: optionalUrl,
    /** A request body may pause this long between bytes before the connection is closed (408). */
    BODY_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
    /** A request body must be complete this long after its headers (uploads included). */
    BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(300_000),
    /** Beacon events (and sent-reminder records) older than this are pruned. */
    BEACON_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    /** A sighting at least this long after a reminder, at the same gateway, confirms the visit (docs/decisions.md). */
    BEACON_CONFIRM_AFTER_S: z.coerce.number().int().min(0).max(3600).default(60),
    ADMIN_USERNAME: z
      .string()
      .regex(/^[A-Za-z0-9_]+$/)
      .default('admin'),
    ADMIN_PASSWORD: z.string().min(6).optional(),
    JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
    PUBLIC_URL: optionalUrl,
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
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
