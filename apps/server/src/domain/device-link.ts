/**
 * The server's side of the device protocol, whichever broker carries it: the embedded Aedes or an
 * external broker at MQTT_URL. Both deliver what devices publish to `onMessage` and carry what the
 * server publishes to devices. Domain operations publish through it; mqtt/ implements it.
 */
export interface DeviceLink {
  /** Where devices connect, for logs and the demo: `mqtt://host:port`. */
  readonly url: string;
  /** Publishes a command (QoS 1); resolves once the broker has taken it. */
  publish(topic: string, message: unknown): Promise<void>;
  close(): Promise<void>;
}
