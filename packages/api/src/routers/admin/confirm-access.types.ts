import { z } from "zod";

export const ZConfirmAccessOutput = z.object({ admin: z.literal(true) });

export type TConfirmAccessOutput = z.infer<typeof ZConfirmAccessOutput>;
