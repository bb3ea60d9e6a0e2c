import { z } from "zod";

export const ZConfirmKeyOutput = z.object({ keyed: z.literal(true) });

export type TConfirmKeyOutput = z.infer<typeof ZConfirmKeyOutput>;
