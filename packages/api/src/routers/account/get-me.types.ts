import { z } from "zod";

export const ZPlan = z.object({
  name: z.string(),
  activeUntil: z.string().describe("ISO time until which the plan counts"),
});

export const ZGetMeOutput = z.object({
  email: z.string(),
  plan: ZPlan.nullable().describe("The developer plan while it counts; null: keys count against the trial limit"),
  csrfToken: z.string().describe("Send with every change made with this session: the form's csrfToken field, or the X-CSRF-Token header"),
});

export type TGetMeOutput = z.infer<typeof ZGetMeOutput>;
