import type { Deps } from '../deps.ts';
import type { ProvisionService } from '../provision/provision-service.ts';
import { deleteBatches } from './delete-selection.ts';
import { firmwareBatches } from './firmware-to-selection.ts';
import { groupBatches } from './group-selection.ts';
import { provisionBatches } from './provision-selection.ts';
import type { BatchesFor } from './selection-runner.ts';
import { commandBatches } from './send-to-selection.ts';

/** What each action does with a batch, built from its row alone: a run started or resumed alike. */
export const selectionJobs =
  (deps: Deps, provisioning: ProvisionService, onError: (err: unknown, what: string) => void): BatchesFor =>
  async (sel) => {
    switch (sel.action) {
      case 'command':
        return commandBatches(deps.db, deps.devices.commands, sel);
      case 'firmware':
        return firmwareBatches(deps, sel);
      case 'group':
        return groupBatches(deps.db, sel);
      case 'provision':
        return provisionBatches(deps.db, provisioning, sel, onError);
      case 'delete':
        return deleteBatches(deps.db, deps.devices.access);
      default:
        throw new Error(`a selection with no action to resume: ${sel.action ?? 'none'}`);
    }
  };
