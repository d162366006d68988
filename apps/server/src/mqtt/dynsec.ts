import { randomUUID } from 'node:crypto';
import type mqtt from 'mqtt';
import { topics } from '@fleet/shared/protocol';

const CONTROL = '$CONTROL/dynamic-security/v1';
const RESPONSES = `${CONTROL}/response`;
const TIMEOUT_MS = 10_000;
/** Devices per control message: each change rewrites the broker's config file once per command. */
const CHUNK = 100;

type Command = Record<string, unknown> & { command: string };
interface Response {
  command: string;
  error?: string;
  correlationData?: string;
}

export interface IssuedCredentials {
  name: string;
  entity: string;
  password: string;
}

const roleOf = (device: string) => `fleet-device-${device}`;
/** The role an operator gives the server's account: publish on every command topic. */
const SERVER_ROLE = 'fleet-server';

/**
 * Device credentials on an external Mosquitto, through its dynamic-security plugin: one client per
 * device (username and client id = the device id) with a role that allows exactly the device's
 * topics. Mosquitto 2.0 substitutes no `%u` in these ACLs, hence a role per device.
 */
export class MosquittoDynsec {
  private readonly waiting = new Map<string, (responses: Response[]) => void>();

  private constructor(private readonly client: mqtt.MqttClient) {
    client.on('message', (topic, payload) => {
      if (topic !== RESPONSES) return;
      let responses: Response[];
      try {
        responses = (JSON.parse(payload.toString()) as { responses: Response[] }).responses;
      } catch {
        return;
      }
      const id = responses.find((r) => r.correlationData)?.correlationData;
      const resolve = id ? this.waiting.get(id) : undefined;
      if (resolve) resolve(responses);
    });
  }

  /**
   * Takes the dynamic-security API with the server's account, which must hold the plugin's admin
   * role and the `fleet-server` role that lets it publish commands. The server does not grant
   * itself roles: Mosquitto disconnects a client whose roles change (docs/operations.md).
   */
  static async attach(client: mqtt.MqttClient, username: string): Promise<MosquittoDynsec> {
    const dynsec = new MosquittoDynsec(client);
    const [granted] = await client.subscribeAsync(RESPONSES, { qos: 1 });
    if (!granted || granted.qos === 128) {
      throw new Error('The broker refused the dynamic-security API: give the server account its admin role');
    }
    const [answer] = await dynsec.send([{ command: 'getClient', username }]);
    const roles =
      (answer as { data?: { client?: { roles?: Array<{ rolename: string }> } } })?.data?.client?.roles ?? [];
    if (!roles.some((r) => r.rolename === SERVER_ROLE)) {
      throw new Error(
        `The MQTT account ${username} lacks the ${SERVER_ROLE} role that lets it publish commands; see docs/operations.md`,
      );
    }
    return dynsec;
  }

  /** Creates or replaces each device's client, secret and role. */
  async issue(list: IssuedCredentials[]): Promise<void> {
    for (let i = 0; i < list.length; i += CHUNK) {
      const commands = list.slice(i, i + CHUNK).flatMap(({ name, entity, password }) => [
        { command: 'deleteClient', username: name },
        { command: 'deleteRole', rolename: roleOf(name) },
        {
          command: 'createRole',
          rolename: roleOf(name),
          acls: [
            { acltype: 'publishClientSend', topic: `fleet/${entity}/${name}/#`, allow: true },
            { acltype: 'subscribeLiteral', topic: topics.deviceCommands(entity, name), allow: true },
            { acltype: 'subscribeLiteral', topic: topics.entityCommands(entity), allow: true },
          ],
        },
        { command: 'createClient', username: name, clientid: name, password, roles: [{ rolename: roleOf(name) }] },
      ]);
      const responses = await this.send(commands);
      const failed = responses.find((r) => r.error && r.command.startsWith('create'));
      if (failed) throw new Error(`Mosquitto refused ${failed.command}: ${failed.error}`);
    }
  }

  /** Removes the devices' clients (ending their sessions) and roles; unknown ones are skipped. */
  async revoke(names: string[]): Promise<void> {
    for (let i = 0; i < names.length; i += CHUNK) {
      await this.send(
        names.slice(i, i + CHUNK).flatMap((name) => [
          { command: 'deleteClient', username: name },
          { command: 'deleteRole', rolename: roleOf(name) },
        ]),
      );
    }
  }

  private async send(commands: Command[]): Promise<Response[]> {
    const id = randomUUID();
    commands[commands.length - 1]!.correlationData = id;
    const answered = new Promise<Response[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error('The MQTT broker did not answer a dynamic-security request'));
      }, TIMEOUT_MS);
      this.waiting.set(id, (responses) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(responses);
      });
    });
    await this.client.publishAsync(CONTROL, JSON.stringify({ commands }), { qos: 1 });
    return answered;
  }
}
