/**
 * The schema of a `floor.json` settings file, which the floor (floor.ts) validates settings files
 * with. Internal to core/guards: not re-exported by its mod.ts (its type is zod's).
 *
 * @module
 */
import { z } from "zod";
import { firstUse } from "../early/mod.ts";
import { type FloorSettings, PRESETS } from "./policy.ts";

/**
 * Shape of a `floor.json` settings file (user: $HARNESS_HOME, project: .harness/), built when
 * a settings file is first read (most runs have none).
 */
export const floorSettingsSchema = firstUse((): z.ZodType<FloorSettings> => {
  const grantSchema = z.union([z.literal("all"), z.literal("none"), z.array(z.string())]);
  return z.object({
    preset: z.enum(PRESETS).optional(),
    allow: z.object({
      read: grantSchema.optional(),
      write: grantSchema.optional(),
      net: grantSchema.optional(),
      run: grantSchema.optional(),
      env: grantSchema.optional(),
    }).strict().optional(),
    deny: z.object({
      read: z.array(z.string()).optional(),
      write: z.array(z.string()).optional(),
      net: z.array(z.string()).optional(),
      run: z.array(z.string()).optional(),
      env: z.array(z.string()).optional(),
    }).strict().optional(),
    rules: z.object({
      allow: z.array(z.string()).optional(),
      ask: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
    }).strict().optional(),
  }).strict();
});
