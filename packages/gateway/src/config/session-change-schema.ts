import { z } from "zod";

/** The changes to a chat's shared session that a group keeps for its admins unless it grants them to members. */
export const SESSION_CHANGES = ["model", "queue", "memory", "plan", "new", "stop", "compact"] as const;

/** One kind of change to a chat's session (`/model <id>`, `/queue <mode>`, `/memory off`, …). */
export type SessionChange = (typeof SESSION_CHANGES)[number];

/**
 * A group's grant: which session changes its members (not only admins) may make (`groups.<id>.membersMay`); who may
 * make them is decided by `mayChangeSession` (permissions/session-change-permission.ts).
 */
export const sessionChangeSchema = z.enum(SESSION_CHANGES);
