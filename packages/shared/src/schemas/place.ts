import { z } from 'zod';
import { MESSAGES, apiName } from '../validation.ts';
import { floorError, jsonValueError, latitudeError, longitudeError, parseJsonText } from '../org-rules.ts';
import { optionalText } from './device.ts';

/**
 * Fields sites, kiosks, groups and the entity config share (fleet §3, §5). JSON infos travel as
 * JSON text (what the console's text areas hold, checked with 'Is not valid JSON') or as a JSON
 * value; either way the server stores and answers the parsed value, and either way at most
 * 100000 bytes (a value measured serialised). docs/decisions.md.
 */
export const jsonInfo = () =>
  z
    .unknown()
    .transform((v, ctx) => {
      if (v === undefined || v === null) return null;
      if (typeof v !== 'string') {
        const tooBig = jsonValueError(v);
        if (!tooBig) return v;
        ctx.addIssue({ code: 'custom', message: tooBig });
        return z.NEVER;
      }
      const parsed = parseJsonText(v);
      if (parsed.ok) return parsed.value;
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    })
    .optional();

const coordinate = (check: (v: string | number) => string | null) =>
  z.union([z.number(), z.string()]).transform((v, ctx) => {
    const error = check(v);
    if (error) {
      ctx.addIssue({ code: 'custom', message: error });
      return z.NEVER;
    }
    return Number(v);
  });

/** GPS coordinates: latitude then longitude (fleet §3). */
export const gpsCoordinates = (params?: { error: string }) =>
  z.tuple([coordinate(latitudeError), coordinate(longitudeError)], params);

/** Floor: a whole number, or empty. */
export const floor = () =>
  z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .union([z.number(), z.string()])
      .refine((v) => floorError(v) === null, MESSAGES.numeric)
      .transform(Number)
      .nullable()
      .optional(),
  );

/** A reference to another named object of the entity (a site, a kiosk): empty clears it. */
export const reference = () => optionalText(apiName());

/** Where a kiosk or a group stands (fleet §3). */
export const LocationInputSchema = z
  .object({
    site: reference(),
    floor: floor(),
    gps_coordinates: gpsCoordinates().nullable().optional(),
  })
  .strict();

export const LocationSchema = z.object({
  site: z.string().nullable(),
  floor: z.number().nullable(),
  gps_coordinates: z.tuple([z.number(), z.number()]).nullable(),
});
export type Location = z.infer<typeof LocationSchema>;

/** The four JSON infos, as answered. */
export const INFO_FIELDS = ['networkinfo', 'globalinfo', 'allocinfo', 'unallocinfo'] as const;
export type InfoField = (typeof INFO_FIELDS)[number];
export const infoAnswer = () => ({
  networkinfo: z.unknown(),
  globalinfo: z.unknown(),
  allocinfo: z.unknown(),
  unallocinfo: z.unknown(),
});
export const infoInput = () => ({
  networkinfo: jsonInfo(),
  globalinfo: jsonInfo(),
  allocinfo: jsonInfo(),
  unallocinfo: jsonInfo(),
});

export const StateSchema = z.object({ current: z.string().nullable() });
export const StateInputSchema = z.object({ current: z.string().trim().max(32).nullable() }).strict();
