import { z } from 'zod';

/** Every API error answers this envelope (ARCHITECTURE.md, HTTP API). */
export const ErrorInfoSchema = z.object({
  errorInfo: z.object({
    code: z.number().int(),
    userMessage: z.string(),
    developerMessage: z.string(),
    details: z.record(z.string(), z.array(z.string())).optional(),
  }),
});
export type ErrorInfo = z.infer<typeof ErrorInfoSchema>;
