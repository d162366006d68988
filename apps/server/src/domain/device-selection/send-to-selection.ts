import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { invalidField } from '../../lib/http-error.ts';
import type { Scope } from '../account/account-scope.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import type { SendOptions } from '../command/command-rows.ts';
import type { CommandService } from '../command/command-service.ts';
import { runSelection } from './run-selection.ts';
import { auditSelection } from './selection-audit.ts';
import { claimSelection, findSelection, presentSelection } from './selection-scope.ts';

/**
 * A command to every device of a counted selection: one audit entry, then batches in the
 * background, each written with the selection's id and published without waiting; replies
 * settle the rows, and the selection's progress counts them.
 */
export async function sendToSelection(
  db: Db,
  commands: CommandService,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  id: string,
  req: SendOptions,
  onError: (err: unknown, what: string) => void,
) {
  if (req.payload.type === 'dfu') {
    throw invalidField('payload.type', 'A firmware update to a selection is not offered; send it to the devices');
  }
  const sel = await claimSelection(db, await findSelection(db, scope, actor, id), 'command');
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
  void runSelection(db, sel, (batch) => commands.toSelectionBatch(actor, sel.id, batch, req), onError);
  return presentSelection(sel);
}
