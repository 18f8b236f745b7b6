import ipaddr from 'ipaddr.js';

/**
 * Which addresses are internal, in every spelling: the one classification every outbound call
 * uses (alert channels, integrations' APIs, databases and Zendesk), by ipaddr.js, which knows every
 * IPv4 and IPv6 form and names their ranges.
 */

/**
 * Why an IP address is not public, in ipaddr.js's words for its range ("loopback", "private",
 * "linkLocal", "uniqueLocal", "unspecified", "carrierGradeNat", "reserved"…), or null when it is a
 * public unicast address. Every IPv6 spelling of an IPv4 address is judged as that IPv4 address:
 * IPv4-mapped (`::ffff:7f00:1`, however written), IPv4-translated (`::ffff:0:7f00:1`), NAT64
 * (`64:ff9b::7f00:1`) and 6to4 (`2002:7f00:1::`). IPv4-compatible addresses (`::7f00:1`, deprecated
 * since 2006), Teredo tunnels (their IPv4 is hidden) and local-use NAT64 are never public.
 */
export function internalRange(address: string): string | null {
  const text = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(text) || text.includes('%')) return 'not an IP address';
  const ip = ipaddr.parse(text);
  if (ip.kind() === 'ipv4') return rangeOfIPv4(ip as ipaddr.IPv4);
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  const parts = v6.parts;
  const ipv4At = (hi: number, lo: number) => rangeOfIPv4(new ipaddr.IPv4([parts[hi] >> 8, parts[hi] & 0xff, parts[lo] >> 8, parts[lo] & 0xff]));
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return ipv4At(6, 7);
    case 'rfc6052':
      // The well-known prefix 64:ff9b::/96 carries the IPv4 address last; the local-use 64:ff9b:1::/48 is a network's own.
      return parts[2] === 0 && parts[3] === 0 && parts[4] === 0 && parts[5] === 0 ? ipv4At(6, 7) : 'rfc6052 (local-use NAT64)';
    case '6to4':
      return ipv4At(1, 2);
    case 'unicast':
      // ::a.b.c.d, the IPv4-compatible form: ipaddr.js leaves it in unicast.
      return parts.slice(0, 6).every((p) => p === 0) ? 'ipv4Compatible' : null;
    default:
      return range;
  }
}

const rangeOfIPv4 = (ip: ipaddr.IPv4): string | null => (ip.range() === 'unicast' ? null : ip.range());

/** Whether an IP address lies in a loopback, private, link-local, unique-local or otherwise non-public range (any spelling). */
export const isInternalAddress = (address: string): boolean => internalRange(address) !== null;

/** Host names that are this machine whatever DNS says (RFC 6761 `localhost` and Debian's /etc/hosts names). */
const LOCAL_NAMES = /^(localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)$|\.localhost$/;

/**
 * Why a host as typed (a name or an address, without brackets or a trailing dot) is internal
 * before any DNS: a local name is loopback, an address its range; null for a public address or
 * another name (its addresses are checked after DNS).
 */
export const internalHostRange = (host: string): string | null => (LOCAL_NAMES.test(host.toLowerCase()) ? 'loopback' : ipaddr.isValid(host) ? internalRange(host) : null);
