/** @module One line of `memory-pool doctor`: a pass, or a failure with the fix. */

export interface DoctorCheck {
  readonly name: string;
  readonly ok: boolean;
  /** What was found. */
  readonly detail: string;
  /** What to do, on a failure. */
  readonly fix?: string;
}

/** A check that passed, with what was found. */
export const pass = (name: string, detail: string): DoctorCheck => ({ name, ok: true, detail });

/** A check that failed, with what was found and what to do. */
export const fail = (name: string, detail: string, fix: string): DoctorCheck => ({
  name,
  ok: false,
  detail,
  fix,
});
