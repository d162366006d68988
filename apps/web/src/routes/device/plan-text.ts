import type {
  SelectionFirmwarePlan,
  SelectionGroupPlan,
  SelectionProvisionPlan,
} from '@fleet/shared/schemas/selection-actions';

const plural = (n: number) => `${n} device${n === 1 ? '' : 's'}`;
const skipped = (parts: Array<string | false>) => {
  const kept = parts.filter(Boolean);
  return kept.length === 0 ? '' : ` Skipped: ${kept.join(', ')}.`;
};

/** The firmware dry run in words: who is updated, who is skipped and why. */
export function firmwarePlanText(p: SelectionFirmwarePlan): string {
  return (
    `${plural(p.update)} of ${p.total} will be updated to ${p.device_type} ${p.version}` +
    `${p.level === 'entity' ? '' : ` (the ${p.level} ${p.place}'s firmware)`}.` +
    skipped([
      p.current > 0 && `${p.current} already run ${p.version}`,
      p.unresponsive > 0 && `${p.unresponsive} unresponsive (silent for 20 minutes)`,
      p.other_type > 0 && `${p.other_type} of another device type`,
      p.other_place > 0 && `${p.other_place} outside ${p.level} ${p.place}`,
      p.gone > 0 && `${p.gone} deleted since the count`,
    ])
  );
}

/** The group dry run in words: who moves in, who does not and why. */
export function groupPlanText(p: SelectionGroupPlan): string {
  return (
    `${plural(p.put)} of ${p.total} will be put into ${p.group}.` +
    skipped([
      p.already > 0 && `${p.already} already in it`,
      p.full > 0 && `${p.full} beyond its capacity of ${p.capacity ?? 0}`,
      p.other_entity > 0 && `${p.other_entity} of another entity`,
      p.gone > 0 && `${p.gone} deleted since the count`,
    ])
  );
}

/** The provisioning dry run in words: connected devices only. */
export function provisionPlanText(p: SelectionProvisionPlan): string {
  return (
    `${plural(p.start)} of ${p.total} will be provisioned (connected devices only).` +
    skipped([
      p.offline > 0 && `${p.offline} offline`,
      p.unresponsive > 0 && `${p.unresponsive} unresponsive (silent for 20 minutes)`,
      p.gone > 0 && `${p.gone} deleted since the count`,
    ])
  );
}
