import net from 'node:net';
import mqttPacket from 'mqtt-packet';

/** A bare TCP socket to the broker, from `localAddress` (any 127.x.y.z reaches loopback on Linux). */
export function openSocket(url: string, localAddress = '127.0.0.1'): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port), localAddress }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with the milliseconds until the socket closes (rejects if it is still open after `ms`). */
export function closedWithin(socket: net.Socket, ms: number): Promise<number> {
  const t0 = performance.now();
  if (socket.destroyed || socket.readyState === 'closed') return Promise.resolve(0);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`socket still open after ${ms} ms`)), ms);
    socket.on('error', () => {});
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(performance.now() - t0);
    });
  });
}

/**
 * Sends a CONNECT (MQTT 3.1.1, client id = username) from `localAddress` and resolves with the
 * CONNACK's return code (0: accepted), then closes the socket.
 */
export async function connackOf(url: string, username: string, password: string, localAddress = '127.0.0.1') {
  const socket = await openSocket(url, localAddress);
  const parser = mqttPacket.parser({ protocolVersion: 4 });
  const code = new Promise<number>((resolve, reject) => {
    parser.on('packet', (p) => p.cmd === 'connack' && resolve(p.returnCode ?? -1));
    socket.on('data', (chunk) => parser.parse(chunk));
    socket.once('close', () => reject(new Error('closed without a CONNACK')));
  });
  socket.write(
    mqttPacket.generate({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clean: true,
      keepalive: 30,
      clientId: username,
      username,
      password: Buffer.from(password),
    }),
  );
  try {
    return await code;
  } finally {
    socket.destroy();
  }
}
