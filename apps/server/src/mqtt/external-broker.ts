import mqtt from 'mqtt';
import { SERVER_SUBSCRIPTIONS } from '@fleet/shared/protocol';
import type { BrokerLink, LinkHandlers } from './device-link.ts';

interface Options {
  url: string;
  /** Shared-subscription group: the instances of one deployment split device traffic between them. */
  shareGroup: string;
  handlers: LinkHandlers;
  onError(err: Error): void;
}

/**
 * An external broker at MQTT_URL (credentials in the URL). The server is one more client: it
 * subscribes to what devices publish through a shared subscription, so each message reaches one
 * API instance, and publishes commands. Presence comes from the protocol (state `online`, Last Will).
 * Connected (and publishing) at once; devices' messages arrive once `listen()` has subscribed.
 */
export async function connectExternalBroker(opts: Options): Promise<BrokerLink & { client: mqtt.MqttClient }> {
  const client = await mqtt.connectAsync(opts.url, {
    protocolVersion: 4,
    clientId: `fleet-api-${process.pid}-${Math.random().toString(16).slice(2, 10)}`,
    clean: true,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
  });
  client.on('error', opts.onError);
  client.on('message', (topic, payload) => opts.handlers.message(topic, payload));
  const filters = SERVER_SUBSCRIPTIONS.map((filter) => `$share/${opts.shareGroup}/${filter}`);
  const subscribe = async () => {
    const granted = await client.subscribeAsync(filters, { qos: 1 });
    const refused = granted.filter((g) => g.qos === 128).map((g) => g.topic);
    if (refused.length > 0) throw new Error(`The broker refused the server's subscriptions: ${refused.join(', ')}`);
  };
  let listening = false;
  // With a clean session the subscriptions go with the connection; take them again after a reconnect.
  client.on('connect', () => void (listening && subscribe().catch(opts.onError)));

  const { hostname, port } = new URL(opts.url);
  return {
    url: `mqtt://${hostname}:${port || 1883}`,
    client,
    async listen() {
      listening = true;
      await subscribe();
    },
    async publish(topic, message) {
      await client.publishAsync(topic, JSON.stringify(message), { qos: 1 });
    },
    async close() {
      await client.endAsync();
    },
  };
}
