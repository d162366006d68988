import { loadConfig } from '../config.ts';
import { exitOnSignals } from '../lib/exit-on-signals.ts';

/**
 * The kiosk manager on its own (`npm run start:kiosk-manager`): the allocate and return calls
 * under /kiosk-manager/v1 on KIOSK_MANAGER_PORT (8081), sharing the API's database, broker and
 * bus. Run it against PostgreSQL, an MQTT broker and Redis (DATABASE_URL, MQTT_URL, REDIS_URL);
 * with the embedded defaults it needs a DATA_DIR and MQTT_PORT no running server uses.
 */
const config = loadConfig();
const { build } = await import('../app.ts');
const app = await build(config, { kioskManagerOnly: true });

exitOnSignals(app, 'kiosk manager');

await app.listen({ port: config.KIOSK_MANAGER_PORT, host: config.HOST });
