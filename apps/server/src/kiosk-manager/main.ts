import { loadConfig } from '../config.ts';

/**
 * The kiosk manager on its own (`npm run start:kiosk-manager`): the allocate and return calls
 * under /kiosk-manager/v1 on KIOSK_MANAGER_PORT (8081), sharing the API's database, broker and
 * bus. Run it against PostgreSQL, an MQTT broker and Redis (DATABASE_URL, MQTT_URL, REDIS_URL);
 * with the embedded defaults it needs a DATA_DIR and MQTT_PORT no running server uses.
 */
const config = loadConfig();
const { build } = await import('../app.ts');
const app = await build(config, { kioskManagerOnly: true });

const FORCE_EXIT_MS = 8_000;
let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  const force = setTimeout(() => process.exit(1), FORCE_EXIT_MS);
  force.unref();
  app.log.info({ signal }, 'kiosk manager shutting down');
  try {
    await app.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'error while shutting down');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.KIOSK_MANAGER_PORT, host: config.HOST });
