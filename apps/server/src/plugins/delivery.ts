import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Transporter } from 'nodemailer';
import type { Deps } from '../domain/deps.ts';
import { sendAlertEmails, type Mail } from '../domain/webhook/alert-email.ts';
import { DELIVERY_BATCH, deliverWebhooks } from '../domain/webhook/deliver-webhooks.ts';

/** Batches of deliveries one pass has in flight at once: one is POSTed while another is claimed or recorded. */
const LANES = 2;

/**
 * The delivery worker of one instance: every DELIVERY_POLL_MS, and as soon as alerts change on any
 * instance (`wake`), it delivers the webhook queue's due rows and sends the alert e-mails whose
 * burst ended. The queue rows are written by triggers in the transaction of each change
 * (0019_alert_delivery.sql), so no event waits on this process; instances share the queue through
 * `skip locked` and leases. Tests set DELIVERY_POLL_MS=0 and call `tick`.
 */
export class DeliveryWorker {
  private chain: Promise<void> = Promise.resolve();
  private busy = false;
  /** News came while a pass ran: another pass follows it at once. */
  private again = false;
  private toldNoSmtp = false;
  private readonly send: ((mail: Mail) => Promise<void>) | undefined;

  constructor(
    private readonly deps: Deps,
    private readonly log: FastifyInstance['log'],
    readonly now: () => Date = () => new Date(),
  ) {
    const { SMTP_URL, SMTP_FROM } = deps.config;
    if (SMTP_URL) {
      // nodemailer is loaded with the first e-mail: a server without SMTP does not carry it.
      let transport: Promise<Transporter> | undefined;
      this.send = async (mail) => {
        transport ??= import('nodemailer').then((nodemailer) => nodemailer.createTransport(SMTP_URL));
        await (await transport).sendMail({ from: SMTP_FROM, to: mail.to, subject: mail.subject, text: mail.text });
      };
    }
  }

  /** One pass at `now` (webhooks, then e-mails), after the one running; the timer's tick skips while one runs. */
  tick(now?: Date): Promise<void> {
    if (this.busy && !now) return this.chain;
    this.busy = true;
    this.chain = this.chain
      .catch(() => undefined)
      .then(() => this.pass(now ?? this.now()))
      .finally(() => {
        this.busy = false;
        if (this.again) this.wake();
      });
    return this.chain;
  }

  /** New events are queued: a pass starts now, or right after the one running (the poll is the fallback). */
  wake(): void {
    this.again = this.busy;
    if (!this.busy) void this.tick().catch((err: unknown) => this.log.error({ err }, 'delivery: a pass failed'));
  }

  /** Resolves once the pass running (if any) is over. */
  idle(): Promise<void> {
    return this.chain.catch(() => undefined);
  }

  private async pass(now: Date): Promise<void> {
    const onError = (err: unknown) => this.log.error({ err }, 'delivery: an alert e-mail was not sent');
    if (!this.send && !this.toldNoSmtp) {
      this.toldNoSmtp = true;
      this.log.info('delivery: SMTP_URL is not set, so alert rules e-mail no one');
    }
    await sendAlertEmails(this.deps.db, now, this.deps.config.ALERT_EMAIL_QUIET_S, this.send, onError);
    // A full batch of deliveries means more are due: up to 40 batches a pass, then e-mail's turn
    // again. LANES batches at once (each claims its own rows, as two instances would): while one
    // batch's POSTs are out, another's claim or record has the database.
    const lane = async () => {
      for (let i = 0; i < 40 / LANES && (await deliverWebhooks(this.deps.db, now)) >= DELIVERY_BATCH; i++)
        if (this.now() > now) now = this.now();
    };
    await Promise.all(Array.from({ length: LANES }, lane));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Webhook and e-mail delivery on this instance (tests drive `tick`). */
    delivery: DeliveryWorker;
  }
}

export const deliveryPlugin = fp(
  async (app: FastifyInstance, { deps }: { deps: Deps }) => {
    const worker = new DeliveryWorker(deps, app.log);
    const ms = deps.config.DELIVERY_POLL_MS;
    const timer =
      ms > 0
        ? setInterval(
            () => void worker.tick().catch((err: unknown) => app.log.error({ err }, 'delivery: a pass failed')),
            ms,
          )
        : null;
    timer?.unref();
    // Alert events are queued by the statements that move alerts: deliver them now, not at the next poll.
    let closing = false;
    if (ms > 0) deps.bus.subscribe('alerts.changed', () => closing || worker.wake());
    app.addHook('preClose', async () => {
      closing = true;
      if (timer) clearInterval(timer);
      await worker.idle();
    });
    app.decorate('delivery', worker);
  },
  { name: 'delivery' },
);
