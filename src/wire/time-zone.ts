/** @module What counts as a time zone on the wire and in the config: an IANA name that Node's Intl knows. */

/** Whether Intl knows `timeZone` as an IANA zone (`Europe/Paris`, `Asia/Tokyo`) or `UTC`. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
