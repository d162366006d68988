import { sql } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { invalidField } from '../../lib/http-error.ts';
import type { Scope } from '../account/account-scope.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import type { SendOptions } from '../command/command-rows.ts';
import type { CommandService } from '../command/command-service.ts';
import type { Batches, SelectionRunner } from './selection-runner.ts';
import { auditSelection } from './selection-audit.ts';
import { batchIn, commandWritten } from './selection-members.ts';
import { claimSelection, findSelection, presentSelection, type SelectionRow } from './selection-scope.ts';

/** Every member still there gets the command once: a batch redone after a crash skips those that have it. */
const ALL = sql`'all'`;

/** The batches of a command to a selection, from the command stored on its row. */
export const commandBatches =
  (db: Db, commands: CommandService, sel: SelectionRow): Batches =>
  async (batch) =>
    commands.toSelectionBatch(
      { sub: sel.owner } as AccessClaims,
      sel.id,
      await batchIn(db, sel.id, batch, ALL, 'all', commandWritten),
      sel.args as SendOptions,
    );

/**
 * A command to every device of a counted selection: one audit entry, then batches in the
 * background, each written with the selection's id and published without waiting; replies
 * settle the rows, and the selection's progress counts them.
 */
export async function sendToSelection(
  db: Db,
  runner: SelectionRunner,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  id: string,
  req: SendOptions,
) {
  if (req.payload.type === 'dfu') {
    throw invalidField('payload.type', 'A firmware update to a selection is not offered; send it to the devices');
  }
  const found = await findSelection(db, scope, actor, id);
  const sel = await claimSelection(db, found, 'command', { ...req }, runner.holder);
  const { type, ...args } = req.payload;
  await auditSelection(
    db,
    ctx,
    sel,
    { action: 'command.send', target: { type: 'command', name: type } },
    {
      phase: 'sent',
      command: type,
      ...(Object.keys(args).length > 0 && { args }),
    },
  );
  runner.run(sel);
  return presentSelection(sel);
}
