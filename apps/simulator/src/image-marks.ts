/**
 * What a firmware image does to the simulated devices it reaches (an image is for one device
 * type, so marking its version marks it for that type):
 * - `fails`: downloaded, then not installed (`install failed: …`), the device stays as it was;
 * - `bricks`: installed and answered with the new version, then the device hangs for good: it
 *   never speaks again and its link dies the way a powerless device's does (no DISCONNECT, no
 *   FIN), so the broker notices only when the keepalive runs out, and publishes the Last Will;
 * - `loops`: installed and answered, then the device crashes a while after every boot and
 *   reboots (its link dies without a goodbye, the broker publishes the Last Will, and it connects
 *   and reports `BOOTING` again), for as long as it runs the image.
 */
export type ImageMark = 'fails' | 'bricks' | 'loops';

export class ImageMarks {
  private readonly marks = new Map<string, ImageMark>();

  constructor(lists: Partial<Record<ImageMark, readonly string[] | undefined>>) {
    for (const [mark, versions] of Object.entries(lists) as [ImageMark, readonly string[] | undefined][])
      for (const v of versions ?? []) this.marks.set(v, mark);
  }

  /** Marks `version` (or, with `bad` false, fixes it: it installs and runs like any other). */
  mark(version: string, bad: boolean, how: ImageMark): void {
    if (bad) this.marks.set(version, how);
    else if (this.marks.get(version) === how) this.marks.delete(version);
  }

  /** What `version` does to the device, if anything. */
  of(version: string | undefined): ImageMark | undefined {
    return version === undefined ? undefined : this.marks.get(version);
  }
}
