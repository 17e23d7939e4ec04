/** The result of one doctor check: one line, pass or fail. */
export interface DoctorCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/** One check's line, e.g. "PASS  telegram/main  token accepted (bot @chorus_bot)". */
export function formatCheck(check: DoctorCheck, nameWidth: number): string {
  return `${check.ok ? "PASS" : "FAIL"}  ${check.name.padEnd(nameWidth)}  ${check.detail}`;
}

/** Time one network check may take. */
export const CHECK_TIMEOUT_MS = 15_000;
