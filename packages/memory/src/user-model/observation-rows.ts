import type { NewUserObservation, UserObservation } from "./style-observation.js";

/** An observation as both stores keep it (Postgres returns bigints as strings). */
export interface ObservationRow {
  scope: string;
  style: string;
  at: number | string;
}

/** An observation's column values (`scope, style, at`): its style as JSON. */
export function observationValues(observation: NewUserObservation): [string, string, number] {
  return [observation.scope, JSON.stringify(observation.style), observation.at];
}

export function observationFromRow(row: ObservationRow): UserObservation {
  return { scope: row.scope, style: JSON.parse(row.style), at: Number(row.at) };
}
