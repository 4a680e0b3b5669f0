/**
 * Locations for the `time` module, as Go's time.Location: UTC, fixed offsets (what parsing a
 * numeric zone yields) and named IANA zones resolved through `Intl.DateTimeFormat` (Node and
 * browsers carry the tz database; no host imports). A location maps an instant (Unix seconds) to
 * its offset east of UTC and its abbreviation.
 *
 * Abbreviations come from CLDR, not the tz database: where CLDR has no alphabetic abbreviation the
 * numeric form the tz database uses ("+04", "+0530") is printed; named abbreviations can differ
 * from Go's for some zones (docs/starlark.md "The time module").
 */
import { daysFromCivil } from './time-civil.ts';

export interface Zone {
  offset: number;
  abbr: string;
}

export interface Location {
  /** The name Go's Location.String() returns ("UTC", "US/Eastern", "" for fixed zones). */
  readonly name: string;
  lookup(unixSec: number): Zone;
  /** Go's Location.lookupName: the offset of a zone abbreviation of this location near unixSec. */
  lookupName(name: string, unixSec: number): number | undefined;
}

const utcName = (name: string): number | undefined => (name === 'UTC' ? 0 : undefined);

export const UTC: Location = Object.freeze({
  name: 'UTC',
  lookup: (): Zone => ({ offset: 0, abbr: 'UTC' }),
  lookupName: utcName,
});

const LOCAL: Location = Object.freeze({
  name: 'Local',
  lookup: (): Zone => ({ offset: 0, abbr: 'UTC' }),
  lookupName: utcName,
});

/** Go's time.FixedZone(name, offset). */
export function fixedZone(name: string, offset: number): Location {
  return Object.freeze({
    name,
    lookup: (): Zone => ({ offset, abbr: name }),
    lookupName: (n: string): number | undefined => (n === name ? offset : undefined),
  });
}

// Intl's date range is +-8.64e15 ms; instants beyond it use the offset at the edge.
const EDGE_SEC = 8.64e12 - 86400 * 2;

class IanaLocation implements Location {
  readonly name: string;
  private readonly fields: Intl.DateTimeFormat;
  private readonly abbrevs: Intl.DateTimeFormat[];
  constructor(name: string) {
    this.name = name;
    this.fields = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    this.abbrevs = [new Intl.DateTimeFormat(abbrevLocale(name), { timeZone: name, timeZoneName: 'short' })];
  }
  lookup(unixSec: number): Zone {
    const offset = this.offsetAt(unixSec);
    const sec = Math.max(-EDGE_SEC, Math.min(EDGE_SEC, unixSec));
    return { offset, abbr: this.abbreviation(new Date(Math.floor(sec) * 1000), offset) };
  }
  private offsetAt(unixSec: number): number {
    const sec = Math.max(-EDGE_SEC, Math.min(EDGE_SEC, unixSec));
    const date = new Date(Math.floor(sec) * 1000);
    const parts: Record<string, string> = {};
    for (const p of this.fields.formatToParts(date)) parts[p.type] = p.value;
    let year = Number(parts['year']);
    if (parts['era'] === 'BC' || parts['era'] === 'B') year = 1 - year;
    const n = (k: string): number => Number(parts[k]);
    const local = daysFromCivil(year, n('month'), n('day')) * 86400 + n('hour') * 3600 + n('minute') * 60 + n('second');
    return local - date.getTime() / 1000;
  }
  lookupName(name: string, unixSec: number): number | undefined {
    const zones = [unixSec, ...REFERENCE_INSTANTS].map((u) => this.lookup(u)).filter((z) => z.abbr === name);
    for (const z of zones) {
      const there = this.lookup(unixSec - z.offset);
      if (there.abbr === name) return there.offset;
    }
    return zones[0]?.offset;
  }
  private abbreviation(date: Date, offset: number, modern = false): string {
    // Local mean time (before a zone's first transition) has an offset with seconds.
    if (offset % 60 !== 0) return 'LMT';
    for (const f of this.abbrevs) {
      const name = f.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? '';
      if (/^[A-Z]{3,5}$/.test(name) && (name !== 'GMT' || offset === 0)) return name;
    }
    // CLDR's metazones start in the 20th century: an older instant with a modern offset takes the
    // modern name.
    if (!modern) {
      for (const ref of REFERENCE_INSTANTS) {
        const d = new Date(ref * 1000);
        if (this.offsetAt(ref) === offset) {
          const name = this.abbreviation(d, offset, true);
          if (!/^[+-]/.test(name)) return name;
        }
      }
    }
    const a = Math.abs(offset);
    const hh = String(Math.floor(a / 3600)).padStart(2, '0');
    const mm = Math.floor((a % 3600) / 60);
    return (offset < 0 ? '-' : '+') + hh + (mm === 0 ? '' : String(mm).padStart(2, '0'));
  }
}

/**
 * The English locale whose CLDR short zone names match the tz database's abbreviations in a
 * region (en-US knows EST/CST, en-GB knows CET, en-AU knows AEDT, ...). Zones CLDR names only
 * as GMT+n get the tz database's numeric form.
 */
function abbrevLocale(name: string): string {
  if (/^(Europe|GB|Atlantic|Eire|Portugal|Poland|WET|CET|MET|EET)/.test(name)) return 'en-GB';
  if (/^Australia\//.test(name)) return 'en-AU';
  if (/^(Pacific\/Auckland|NZ)/.test(name)) return 'en-NZ';
  if (/^Asia\/(Kolkata|Calcutta)$/.test(name)) return 'en-IN';
  if (/^Africa\//.test(name)) return 'en-ZA';
  return 'en-US';
}

/** 2020-01-01 and 2020-07-01 UTC: winter and summer of a recent year. */
const REFERENCE_INSTANTS = [1577836800, 1593561600];

const cache = new Map<string, Location>();

/**
 * Go's time.LoadLocation: "" and "UTC" are UTC, "Local" is the host zone (UTC here: scripts
 * must not depend on where they run); other names must be tz database names.
 */
export function loadLocation(name: string): Location | undefined {
  if (name === '' || name === 'UTC') return UTC;
  if (name === 'Local') return LOCAL;
  const hit = cache.get(name);
  if (hit !== undefined) return hit;
  // Go rejects offsets, relative paths and names with backslashes; Intl accepts some offsets.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name) || name.includes('..')) return undefined;
  let loc: Location;
  try {
    // Go's names are file names: case matters ("utc" is unknown), which Intl ignores.
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) return undefined;
    loc = new IanaLocation(name);
    loc.lookup(0);
  } catch {
    return undefined;
  }
  if (cache.size < 512) cache.set(name, loc);
  return loc;
}
