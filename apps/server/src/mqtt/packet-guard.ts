import type { Socket } from 'node:net';
import { MAX_DEVICE_PAYLOAD_BYTES } from '@fleet/shared/protocol';

/**
 * Largest MQTT packet a device may send (docs/device-protocol.md "Budgets and limits"): four
 * times the largest payload the server reads, so a payload somewhat over MAX_DEVICE_PAYLOAD_BYTES
 * is still read, dropped and counted (`too_large`), while a packet past this ends the connection
 * before its body is buffered.
 */
export const MAX_PACKET_BYTES = 4 * MAX_DEVICE_PAYLOAD_BYTES;

/**
 * Bytes a connection may send before it is signed in: a CONNECT with a will of the largest payload
 * and a few packets sent before the CONNACK fit; a stranger's stream does not.
 */
export const MAX_UNAUTHENTICATED_BYTES = 2 * MAX_DEVICE_PAYLOAD_BYTES;

/**
 * Reads the fixed header of every MQTT packet on the socket as the broker takes its bytes, and
 * destroys the socket once a header declares a packet larger than MAX_PACKET_BYTES (or a
 * malformed length), or once an unauthenticated socket has sent more than
 * MAX_UNAUTHENTICATED_BYTES. Aedes and mqtt-packet have no packet size limit: without this a
 * header claiming 256 MB makes the parser buffer whatever follows. Attach after `broker.handle`:
 * the broker reads with `read()`, which emits `data` for each chunk it takes, so this sees every
 * chunk without changing how the socket flows, and at most one chunk (64 KiB) reaches the parser
 * after the header that gives the packet away.
 */
export function guardPackets(socket: Socket, onRefused: () => void): { signedIn(): void } {
  /** Header bytes still to read (-1: the type byte; 0..3: remaining-length bytes so far). */
  let lengthBytes = -1;
  let length = 0;
  let multiplier = 1;
  /** Body bytes of the current packet not yet seen. */
  let skip = 0;
  let unauthenticated = true;
  let received = 0;

  const refuse = () => {
    socket.removeListener('data', onData);
    socket.destroy();
    onRefused();
  };

  function onData(chunk: Buffer) {
    if (unauthenticated && (received += chunk.length) > MAX_UNAUTHENTICATED_BYTES) return refuse();
    let i = 0;
    while (i < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - i);
        skip -= n;
        i += n;
        continue;
      }
      const byte = chunk[i++]!;
      if (lengthBytes < 0) {
        lengthBytes = 0;
        length = 0;
        multiplier = 1;
        continue;
      }
      length += (byte & 0x7f) * multiplier;
      multiplier *= 128;
      lengthBytes++;
      // MQTT allows 4 length bytes; a fifth continuation bit is malformed.
      if (length + 1 + lengthBytes > MAX_PACKET_BYTES || (byte & 0x80 && lengthBytes === 4)) return refuse();
      if (byte & 0x80) continue;
      skip = length;
      lengthBytes = -1;
    }
  }

  socket.on('data', onData);
  return {
    signedIn() {
      unauthenticated = false;
    },
  };
}
