/**
 * The command ids a device has seen, bounded: the least recently seen id is forgotten first.
 * QoS 1 delivers at least once, and a held command may arrive both from the broker's session and
 * from the server when the device wakes; the device acts on each id once.
 */
export class SeenIds {
  private readonly ids = new Map<string, true>();

  constructor(readonly capacity = 256) {}

  /** Records `id`; answers false when it was already seen (and marks it recently seen). */
  remember(id: string): boolean {
    const seen = this.ids.delete(id);
    this.ids.set(id, true);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.keys().next().value!);
    return !seen;
  }

  get size(): number {
    return this.ids.size;
  }
}
