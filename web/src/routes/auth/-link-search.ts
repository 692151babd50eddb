import { z } from 'zod';

/** `?t=TOKEN&r=EMAIL` of the mailed links. */
export const linkSearch = z.object({
  t: z.string().optional().catch(undefined),
  r: z.string().optional().catch(undefined),
});
