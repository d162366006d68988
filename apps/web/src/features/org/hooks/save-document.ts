import { notifySuccess } from '@/lib/notify.ts';
import { changedOnly } from '../utils/org-rules.ts';

/** A create or update mutation of the organisation's API (named-resource.ts, entity-config.ts). */
interface Save {
  mutate(
    body: Record<string, unknown>,
    callbacks: { onSuccess(answer: { status: string }): void; onError(error: unknown): void },
  ): void;
}

/**
 * Sends a form's document: whole on create, only what changed on edit (an unchanged name is
 * dropped, fleet §5; nothing changed saves nothing). Success shows the server's status text;
 * a failure re-enables the form with the server's field messages (fleet §4).
 */
export function saveDocument(opts: {
  what: string;
  save: Save;
  doc: Record<string, unknown>;
  /** Edit: the document as loaded. */
  before?: Record<string, unknown>;
  onSaved(): void;
  showServerErrors(error: unknown): void;
}) {
  const { what, save, doc, before, onSaved, showServerErrors } = opts;
  const body = before ? changedOnly(doc, before) : doc;
  if (before && Object.keys(body).length === 0) return onSaved();
  save.mutate(body, {
    onSuccess: (answer) => {
      notifySuccess(answer.status);
      onSaved();
    },
    onError: (error) => {
      console.error(`${what} not saved:`, error);
      showServerErrors(error);
    },
  });
}
