// Last line of defence: the chains redact what they report, and the orchestrator still masks any
// literal secret of the profile that slips into an event before anyone renders or prints it.

import { SecretScrubber } from '../check/scrub.js';
import type { CheckEvent } from '../check/types.js';
import type { Values } from '../destination/fields.js';

export const MASK = '••••';

/** Returns a function that masks every secret value of `values` in an event's strings. */
export function eventRedactor(values: Values): (event: CheckEvent) => CheckEvent {
  const scrubber = new SecretScrubber(() => MASK).addProfileSecrets(values);
  return (event) => scrubber.scrubDeep(event);
}
