/**
 * Setup file of the integration and scale projects (vitest.config.ts `setupFiles`), run in each
 * worker before a test file is imported. In scale mode scripts/ci/with-services.sh starts one
 * Redis and one Mosquitto per worker and lists them in REDIS_URLS and MQTT_URLS; this points
 * REDIS_URL and MQTT_URL at the pair of this worker (VITEST_POOL_ID, 1 to maxWorkers), so a file's
 * servers never hear the devices, commands or pub/sub of a file another worker runs at the same
 * time. Without the lists (one pair, or the embedded services) it changes nothing.
 */
function own(list: string | undefined, name: string): string | undefined {
  const urls = list?.split(' ').filter(Boolean) ?? [];
  if (urls.length === 0) return undefined;
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const url = urls[worker - 1];
  // More workers than pairs would put two files on one broker: refuse rather than cross-talk.
  if (!url) throw new Error(`worker ${worker} has no ${name} of its own (${urls.length} listed): maxWorkers too high`);
  return url;
}

const redis = own(process.env.REDIS_URLS, 'Redis');
const mqtt = own(process.env.MQTT_URLS, 'Mosquitto');
if (redis) process.env.REDIS_URL = redis;
if (mqtt) process.env.MQTT_URL = mqtt;
