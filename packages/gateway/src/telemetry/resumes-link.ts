import type { Link } from "@opentelemetry/api";
import { spanContextOf } from "./traceparent.js";

/** What a run's span says of a run it resumes: `chorus.link.type` on the link. */
const RESUMES = { "chorus.link.type": "resumes" } as const;

/**
 * The span link from a run to the interrupted run it resumes or re-runs (a restart, a takeover), named by that run's
 * stored traceparent. Contract: undefined when it was not traced (or the stored value is not a traceparent).
 */
export function resumesLink(traceparent: string | undefined): Link | undefined {
  const resumed = spanContextOf(traceparent);
  return resumed === undefined ? undefined : { context: resumed, attributes: RESUMES };
}
