/**
 * The `format` values the SDK's schema interpreter (sdk/schema.ts) checks, written from their
 * definitions (RFC 3339 dates and times, RFC 5321 mailboxes in the common dot-atom form, RFC 1123
 * host names, RFC 4291 IPv6 text, RFC 4122 UUIDs, OpenAPI's int32/int64) and checked against ajv
 * with ajv-formats' full mode by test/sdk/schema-vs-ajv.test.ts, whose answers these follow where
 * ajv-formats 2.1.1 is more lenient than the RFCs: a time's offset is optional and not range-checked,
 * a leap second is 23:59:60 in any offset, IPv4 parts may have leading zeros, int64 is any integer
 * (JSON numbers past 2^53 are already rounded). A format not listed here is not
 * checked (ajv does the same with `strict: false`). String formats ignore non-strings; the integer
 * formats ignore non-numbers.
 */

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= (mo === 2 && leap(y) ? 29 : DAYS[mo - 1]);
}

function isTime(s: string): boolean {
  const m = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(s);
  if (!m) return false;
  const [h, min, sec] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (h > 23 || min > 59 || sec > 60) return false;
  // A leap second only as 23:59:60, whatever the offset (ajv-formats does not shift it to UTC).
  return sec < 60 || (h === 23 && min === 59);
}

function isDateTime(s: string): boolean {
  const parts = s.split(/t|\s/i);
  return parts.length === 2 && isDate(parts[0]) && isTime(parts[1]);
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

function isHostname(s: string): boolean {
  const name = s.endsWith('.') ? s.slice(0, -1) : s;
  if (name.length === 0 || name.length > 253) return false;
  return name.split('.').every((l) => LABEL.test(l));
}

function isEmail(s: string): boolean {
  const at = s.lastIndexOf('@');
  if (at <= 0) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  const atom = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+$/i;
  if (!local.split('.').every((p) => atom.test(p))) return false;
  const labels = domain.split('.');
  return labels.length >= 2 && labels.every((l) => LABEL.test(l));
}

function isIpv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

function isIpv6(s: string): boolean {
  let text = s;
  const lastColon = text.lastIndexOf(':');
  if (lastColon >= 0 && text.slice(lastColon + 1).includes('.')) {
    if (!isIpv4(text.slice(lastColon + 1))) return false;
    text = text.slice(0, lastColon + 1) + '0:0';
  }
  const hex = /^[0-9a-f]{1,4}$/i;
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const split = (h: string): string[] | undefined => (h === '' ? [] : h.split(':'));
  const head = split(halves[0]);
  const tail = halves.length === 2 ? split(halves[1]) : [];
  if (!head || !tail || ![...head, ...tail].every((g) => hex.test(g))) return false;
  const count = head.length + tail.length;
  return halves.length === 2 ? count < 8 : count === 8;
}

const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

const STRING_FORMATS: Record<string, (s: string) => boolean> = {
  date: isDate,
  time: isTime,
  'date-time': isDateTime,
  email: isEmail,
  hostname: isHostname,
  ipv4: isIpv4,
  ipv6: isIpv6,
  uuid: (s) => UUID.test(s),
};

const NUMBER_FORMATS: Record<string, (n: number) => boolean> = {
  int32: (n) => Number.isInteger(n) && n <= 2 ** 31 - 1 && n >= -(2 ** 31),
  int64: (n) => Number.isInteger(n),
};

/** Whether `value` fails `format` (false for an unknown format or a value the format does not apply to). */
export function failsFormat(format: string, value: unknown): boolean {
  if (typeof value === 'string') {
    const check = Object.hasOwn(STRING_FORMATS, format) ? STRING_FORMATS[format] : undefined;
    return check !== undefined && !check(value);
  }
  if (typeof value === 'number') {
    const check = Object.hasOwn(NUMBER_FORMATS, format) ? NUMBER_FORMATS[format] : undefined;
    return check !== undefined && !check(value);
  }
  return false;
}
