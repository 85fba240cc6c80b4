/**
 * The demo fleet: about ten instruments at a few real UK sites, generated from a seed so the
 * same seed always gives the same fleet, and their mutable condition (online, last calibration…).
 */
import { formatServiceTime } from '../shared/service/time';
import type {
  InstrumentFeature,
  InstrumentType,
  SubscriptionStatus,
  SubscriptionTier,
  WireCalibrationStatus,
  WireInstrument,
  WireInstrumentStatus,
  WireSicStatus,
} from '../shared/service/wire';
import { latestGeneratedCalibration, latestGeneratedSic } from './health-history';
import { calibrationStatusOf, sicStatusOf } from './health-measurements';
import { buildHealthProfiles } from './health-profiles';
import { createRandom, type Random } from './random';

/** What the service reports about an instrument's state; Calibration and SIC actions change it (health-state.ts). */
export interface InstrumentCondition {
  online: boolean;
  measuring: boolean;
  calibrationInProgress: boolean;
  sicInProgress: boolean;
  lastCalibration: WireCalibrationStatus | null;
  lastSic: WireSicStatus | null;
}

export interface DemoInstrument {
  wire: WireInstrument;
  condition: InstrumentCondition;
}

interface DemoSite {
  name: string;
  /** Real coordinates of the place; instruments sit a few hundred metres around it. */
  lat: number;
  long: number;
  /** Instrument types that make sense there: vibration only where there is heavy construction. */
  hosts: readonly InstrumentType[];
  /** Monitoring locations a field engineer would name an instrument after. */
  locations: readonly string[];
}

const ALL_TYPES: readonly InstrumentType[] = ['Noise', 'AirQuality', 'Vibration'];

const SITES: readonly DemoSite[] = [
  {
    name: 'Hinkley Point C',
    lat: 51.208,
    long: -3.132,
    hosts: ALL_TYPES,
    locations: [
      'north fence',
      'east boundary',
      'Shurton receptor',
      'Stolford receptor',
      'marine works jetty',
      'gate C1',
      'Wick Moor Drove',
      'batching plant',
    ],
  },
  {
    name: 'Sizewell C',
    lat: 52.217,
    long: 1.617,
    hosts: ALL_TYPES,
    locations: [
      'Leiston Road gate',
      'Eastbridge receptor',
      'Sizewell Gap',
      'northern mound',
      'beach landing',
      'Kenton Hills',
      'accommodation campus',
      'rail siding',
    ],
  },
  {
    name: 'HS2 Euston',
    lat: 51.5283,
    long: -0.1355,
    hosts: ALL_TYPES,
    locations: [
      'Hampstead Road',
      'Granby Terrace',
      'Mornington Crescent',
      'Cobourg Street',
      'Regent’s Park Estate',
      'Melton Street shaft',
      'Park Village East',
      'Euston Square',
    ],
  },
  {
    name: 'M62 J26',
    lat: 53.735,
    long: -1.737,
    hosts: ['Noise', 'AirQuality'],
    locations: [
      'receptor R1',
      'receptor R2',
      'receptor R3',
      'westbound slip',
      'Hunsworth Lane',
      'Whitehall Road',
      'eastbound verge',
      'Cleckheaton Road',
    ],
  },
  {
    name: 'Heathrow',
    lat: 51.47,
    long: -0.4543,
    hosts: ['Noise', 'AirQuality'],
    locations: [
      'Hatton Cross',
      'Stanwell Moor',
      'Longford village',
      'Harlington',
      'Cranford Park',
      'Hounslow Heath',
      'Bath Road',
      'Colnbrook',
    ],
  },
  {
    name: 'Glastonbury Festival',
    lat: 51.157,
    long: -2.587,
    hosts: ['Noise'],
    locations: [
      'Pyramid Stage FOH',
      'Other Stage FOH',
      'West Holts',
      'Pilton village',
      'Cockmill Lane receptor',
      'Park Stage',
      'north boundary',
      'Shangri-La',
    ],
  },
];

/** How many sites one fleet is spread over. */
const SITES_PER_FLEET = 4;

const QUANTUM_MODEL = 'CR:900 Quantum';
const OPTIMUS_MODEL = 'CR:171 Optimus+';
const AIR_QUALITY_MODEL = 'AQ:200';
const VIBRATION_MODEL = 'VM:400';

/** Only the Quantum family of noise monitors supports the system-monitor endpoints. */
export function isQuantumModel(model: string): boolean {
  return /\bQuantum\b/.test(model);
}

const SERIAL_PREFIX: Record<InstrumentType, string> = { Noise: 'QT', AirQuality: 'AQ', Vibration: 'VB' };

const DAY_MS = 86_400_000;

/** The level an acoustic calibrator produces at the microphone (dB). */
const CALIBRATOR_LEVEL_DB = 94.0;

const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

/** A time `daysAgoMin`–`daysAgoMax` days before `nowMs`. */
function pastTimeMs(random: Random, nowMs: number, daysAgoMin: number, daysAgoMax: number): number {
  return nowMs - random.between(daysAgoMin, daysAgoMax) * DAY_MS;
}

/** A plausible calibration result at `timeMs`: level near 94 dB, small offset, usually Success. */
export function generateCalibrationResult(random: Random, timeMs: number): WireCalibrationStatus {
  return {
    time: formatServiceTime(Math.floor(timeMs / 1000) * 1000),
    status: random.chance(0.9) ? 'Success' : 'Failed',
    level: round(CALIBRATOR_LEVEL_DB + random.between(-0.3, 0.3), 2),
    offset: round(random.between(-0.4, 0.4), 2),
  };
}

/** A plausible system integrity check result at `timeMs`: three test-tone levels in dB. */
export function generateSicResult(random: Random, timeMs: number): WireSicStatus {
  return {
    time: formatServiceTime(Math.floor(timeMs / 1000) * 1000),
    status: random.chance(0.85) ? 'Success' : 'Failed',
    _500Hz: round(random.between(78, 86), 1),
    _1KHz: round(random.between(80, 88), 1),
    _8KHz: round(random.between(72, 82), 1),
  };
}

/** The status the service reports, built from the instrument's current condition. */
export function instrumentStatus(condition: InstrumentCondition): WireInstrumentStatus {
  return {
    online: condition.online,
    measuring: condition.online && condition.measuring,
    calibrationInProgress: condition.calibrationInProgress,
    sicInProgress: condition.sicInProgress,
    // Never run: `{}`, as the real service documents it (and as clients must read it).
    lastCalibration: condition.lastCalibration === null ? {} : { ...condition.lastCalibration },
    lastSic: condition.lastSic === null ? {} : { ...condition.lastSic },
  };
}

interface InstrumentPlan {
  type: InstrumentType;
  model: string;
  feature: InstrumentFeature[];
}

function planInstruments(random: Random): InstrumentPlan[] {
  const quantumCount = random.int(3, 4);
  const plans: InstrumentPlan[] = [];
  for (let i = 0; i < quantumCount; i++) {
    // Permanent monitors: SIC and a modem always, a weather station on some.
    const feature: InstrumentFeature[] = ['SIC', 'Modem'];
    if (random.chance(0.5)) feature.push('Weather');
    plans.push({ type: 'Noise', model: QUANTUM_MODEL, feature });
  }
  // Two Optimus+ sound level meters: the first has no SIC, so every fleet has a noise
  // instrument without one; the second sometimes has it.
  plans.push({ type: 'Noise', model: OPTIMUS_MODEL, feature: ['Modem'] });
  plans.push({
    type: 'Noise',
    model: OPTIMUS_MODEL,
    feature: random.chance(0.5) ? ['SIC', 'Modem'] : ['Modem'],
  });
  for (let i = 0; i < 2; i++) {
    plans.push({
      type: 'AirQuality',
      model: AIR_QUALITY_MODEL,
      feature: random.chance(0.5) ? ['Modem', 'Weather'] : ['Modem'],
    });
  }
  for (let i = 0; i < 2; i++) plans.push({ type: 'Vibration', model: VIBRATION_MODEL, feature: ['Modem'] });
  return plans;
}

/** Picks the fleet's sites, always including one that can host vibration monitors. */
function chooseSites(random: Random): DemoSite[] {
  const chosen = random.shuffle(SITES).slice(0, SITES_PER_FLEET);
  if (!chosen.some((site) => site.hosts.includes('Vibration'))) {
    const constructionSites = SITES.filter((site) => site.hosts.includes('Vibration'));
    chosen[chosen.length - 1] = random.pick(constructionSites);
  }
  return chosen;
}

function subscriptionFor(
  random: Random,
  type: InstrumentType,
  status: SubscriptionStatus,
): WireInstrument['subscription'] {
  const tier: SubscriptionTier =
    type === 'AirQuality'
      ? 'Enviro'
      : type === 'Vibration'
        ? random.pick<SubscriptionTier>(['Standard', 'Storage'])
        : random.pick<SubscriptionTier>(['Standard', 'Pro', 'Pro', 'Track', 'Storage']);
  // Audio recording comes with the Pro and Track tiers of noise monitors. (It once came with 60 % of
  // them: the draw is still made, so the fleet's random stream, and every later serial, name and
  // position, stays as it was; with the draw, the default fleet had one audio instrument, offline.)
  const audioTier = type === 'Noise' && (tier === 'Pro' || tier === 'Track');
  if (audioTier) random.chance(0.6);
  return { status, tier, addons: audioTier ? ['Audio'] : [] };
}

const slug = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/**
 * Generates the fleet for a seed. Identity, names, positions and features depend only on the
 * seed; times of the last calibration and SIC are set relative to `nowMs`.
 */
export function generateDemoFleet(seed: number, nowMs: number): DemoInstrument[] {
  const random = createRandom(seed);
  const plans = planInstruments(random);
  const sites = chooseSites(random);
  const load = new Map<DemoSite, number>(sites.map((site) => [site, 0]));
  const usedLocations = new Map<DemoSite, Set<string>>(sites.map((site) => [site, new Set()]));
  const usedSerials = new Set<string>();

  // Place the most constrained types first so vibration always finds a construction site.
  const placementOrder = [...plans.keys()].sort(
    (a, b) => constraint(plans[b] as InstrumentPlan) - constraint(plans[a] as InstrumentPlan),
  );
  const siteOf = new Map<number, DemoSite>();
  for (const index of placementOrder) {
    const plan = plans[index] as InstrumentPlan;
    const eligible = random.shuffle(sites.filter((site) => site.hosts.includes(plan.type)));
    // Least-loaded eligible site; the shuffle breaks ties. Every plan type has an eligible site.
    eligible.sort((a, b) => (load.get(a) ?? 0) - (load.get(b) ?? 0));
    const site = eligible[0] as DemoSite;
    load.set(site, (load.get(site) ?? 0) + 1);
    siteOf.set(index, site);
  }

  const offline = new Set(random.shuffle([...plans.keys()]).slice(0, 2));
  const notActive = new Set(random.shuffle([...plans.keys()]).slice(0, random.int(0, 2)));

  const fleet = plans.map((plan, index): DemoInstrument => {
    const site = siteOf.get(index) as DemoSite;
    const used = usedLocations.get(site) as Set<string>;
    const free = site.locations.filter((location) => !used.has(location));
    const location = free.length > 0 ? random.pick(free) : `monitor ${used.size + 1}`;
    used.add(location);

    let serialNumber: string;
    do {
      serialNumber = `${SERIAL_PREFIX[plan.type]}${random.int(100000, 999999)}`;
    } while (usedSerials.has(serialNumber));
    usedSerials.add(serialNumber);

    const subscriptionStatus: SubscriptionStatus = notActive.has(index)
      ? random.pick<SubscriptionStatus>(['Cancelled', 'Expired'])
      : 'Active';
    const online = !offline.has(index);
    const wire: WireInstrument = {
      type: plan.type,
      serialNumber,
      model: plan.model,
      name: `${site.name} – ${location}`,
      image: `https://demo.fielddesk.invalid/images/${slug(plan.model)}.png`,
      subscription: subscriptionFor(random, plan.type, subscriptionStatus),
      position: {
        // A few hundred metres around the site's centre.
        lat: round(site.lat + random.between(-0.004, 0.004), 5),
        long: round(site.long + random.between(-0.006, 0.006), 5),
      },
      feature: plan.feature,
    };
    const condition: InstrumentCondition = {
      online,
      measuring: online && random.chance(0.8),
      calibrationInProgress: false,
      sicInProgress: false,
      lastCalibration:
        plan.type === 'Noise' ? generateCalibrationResult(random, pastTimeMs(random, nowMs, 1, 42)) : null,
      lastSic: plan.feature.includes('SIC')
        ? generateSicResult(random, pastTimeMs(random, nowMs, 0.2, 14))
        : null,
    };
    return { wire, condition };
  });

  // Always show an instrument that is online but not measuring (paused, awaiting setup).
  const online = fleet.filter((instrument) => instrument.condition.online);
  if (online.every((instrument) => instrument.condition.measuring)) {
    random.pick(online).condition.measuring = false;
  }

  // Always show audio recordings: when no noise monitor drew a Pro or Track tier, one that is
  // recording now is upgraded to Pro with the Audio add-on (no draw, so the stream is unchanged).
  const noise = fleet.filter((instrument) => instrument.wire.type === 'Noise');
  if (!noise.some((instrument) => instrument.wire.subscription.addons?.includes('Audio'))) {
    const recording = noise.find((i) => i.condition.measuring && i.wire.subscription.status === 'Active');
    const chosen = (recording ?? noise[0]) as DemoInstrument;
    chosen.wire.subscription = { ...chosen.wire.subscription, tier: 'Pro', addons: ['Audio'] };
  }

  // The last calibration and SIC are the newest records of each instrument's generated history
  // (health-history.ts), so status, GET …/calibration and /data/calibrations agree. The values
  // drawn in the loop above are replaced; they are still drawn so the fleet's random stream,
  // and with it every later serial, name and position, stays as it was.
  const profiles = buildHealthProfiles(seed, fleet, nowMs);
  for (const instrument of fleet) {
    const profile = profiles.get(instrument.wire.serialNumber);
    const calibration = profile ? latestGeneratedCalibration(profile) : null;
    const sic = profile ? latestGeneratedSic(profile) : null;
    instrument.condition.lastCalibration = calibration ? calibrationStatusOf(calibration) : null;
    instrument.condition.lastSic = sic ? sicStatusOf(sic) : null;
  }
  return fleet;
}

/** Fewer eligible sites = more constrained = placed earlier. */
function constraint(plan: InstrumentPlan): number {
  return -SITES.filter((site) => site.hosts.includes(plan.type)).length;
}

/**
 * A fleet of `size` instruments: the default fleet of `seed` first, then fleets of the following
 * seeds, each instrument kept once (serial numbers are unique), cut to `size`.
 */
export function generateSizedFleet(seed: number, nowMs: number, size: number): DemoInstrument[] {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`The fleet size must be a whole number of at least 1, not ${size}.`);
  const fleet: DemoInstrument[] = [];
  const serials = new Set<string>();
  for (let batch = 0; fleet.length < size; batch++) {
    for (const instrument of generateDemoFleet((seed + batch) >>> 0, nowMs)) {
      if (fleet.length >= size || serials.has(instrument.wire.serialNumber)) continue;
      serials.add(instrument.wire.serialNumber);
      fleet.push(instrument);
    }
  }
  return fleet;
}
