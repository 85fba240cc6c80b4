/**
 * State transitions of renaming an instrument with an optimistic update: the new name shows at
 * once and the old one comes back if the service refuses.
 */
import type { InstrumentEntry } from '../../../../shared/ipc/contract';
import type { Instrument } from '../../../../shared/service/schemas';

export function withName(
  entries: readonly InstrumentEntry[],
  serial: string,
  name: string,
): InstrumentEntry[] {
  return entries.map((entry) =>
    entry.instrument.serialNumber === serial
      ? { ...entry, instrument: { ...entry.instrument, name } }
      : entry,
  );
}

/**
 * Puts the old name back, but only if the entry still shows the name we tried: a refresh that
 * landed meanwhile knows better than our memory of the old name.
 */
export function rolledBack(
  entries: readonly InstrumentEntry[],
  serial: string,
  attempted: string,
  previous: string,
): InstrumentEntry[] {
  return entries.map((entry) =>
    entry.instrument.serialNumber === serial && entry.instrument.name === attempted
      ? { ...entry, instrument: { ...entry.instrument, name: previous } }
      : entry,
  );
}

/** Takes the service's answer as the truth for that instrument. */
export function withInstrument(
  entries: readonly InstrumentEntry[],
  instrument: Instrument,
): InstrumentEntry[] {
  return entries.map((entry) =>
    entry.instrument.serialNumber === instrument.serialNumber ? { ...entry, instrument } : entry,
  );
}
