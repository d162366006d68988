import { z } from 'zod';
import { apiName } from '../validation.ts';
import { jsonInfo } from './place.ts';

/** The spec's message for a device without a last dispenser or whose dispenser has no kiosk (fleet §8). */
export const NO_KIOSK_INFORMATION = 'Device has no kiosk information.';
/** What the console says when a return fails (fleet §8). */
export const RETURN_FAILED = 'Failed to return device';
/**
 * Ours (the spec is silent): a return to the dispenser the device already stands in is refused
 * (docs/decisions/2026-11-25-return-to-own-dispenser.md); the server answers it, the console says it first.
 */
export const alreadyInDispenser = (device: string, dispenser: string) =>
  `Device ${device} is already in dispenser ${dispenser}`;

/** The device states the kiosk manager sets: allocated to a visitor, back in a dispenser. */
export const ALLOCATED_STATE = 'ALLOCATED';
export const RETURNED_STATE = 'WAITING';

/**
 * POST /kiosk-manager/v1/kiosk/{entity}/{kiosk}/allocate (fleet §3 allocation payload): the
 * visitor (the new user ID), the device, optional network info and the dataviews (name → JSON,
 * as a value or as JSON text; empty takes the dataview's stored content).
 */
export const AllocateRequestSchema = z.object({
  visitor: apiName(),
  device: z.string().min(1).max(128),
  network: jsonInfo(),
  apps: z.record(apiName(), jsonInfo()).default({}),
});
export type AllocateRequest = z.input<typeof AllocateRequestSchema>;

/** POST /kiosk-manager/v1/kiosk/{entity}/{kiosk}/return: the device and the kiosk's dispenser it goes to. */
export const ReturnRequestSchema = z.object({
  device: z.string().min(1).max(128),
  dispenser: apiName(),
});
export type ReturnRequest = z.input<typeof ReturnRequestSchema>;

/** One allocation as its history shows it; `returned_at` is null while the device is out. */
export const AllocationSchema = z.object({
  id: z.uuid(),
  device: z.string(),
  entity: z.string(),
  kiosk: z.string(),
  dispenser: z.string(),
  visitor: z.string(),
  /** Dataview name → the content it carried; null for a dataview the reader may not read (its name only). */
  apps: z.record(z.string(), z.unknown()),
  network: z.unknown(),
  allocated_by: z.string(),
  allocated_at: z.string(),
  returned_at: z.string().nullable(),
  returned_by: z.string().nullable(),
  returned_to: z.string().nullable(),
  /** Why it closed: `returned`, or `refused` when the device turned the allocation down. */
  outcome: z.enum(['open', 'returned', 'refused']),
});
export type Allocation = z.infer<typeof AllocationSchema>;

/**
 * The kiosk manager's answer: 200 `success` once the device confirmed, 202 `queued` with a
 * `userMessage` while the device sleeps and the command is held (the console shows a warning).
 */
export const KioskAnswerSchema = z.object({
  status: z.enum(['success', 'queued']),
  userMessage: z.string().optional(),
  data: AllocationSchema.nullable(),
});
export type KioskAnswer = z.infer<typeof KioskAnswerSchema>;
