import ipaddr from 'ipaddr.js';

/**
 * Which peers are reverse proxies whose X-Forwarded-* headers count (TRUST_PROXY), as Express's
 * `trust proxy` reads them: `false` (none: the default), a comma-separated list of the proxies'
 * addresses — IPs, CIDRs and the names `loopback`, `linklocal`, `uniquelocal` — or `true` (any peer:
 * only when nothing can reach the processes but the proxies; the server warns at start).
 */
export interface ProxyTrust {
  readonly mode: 'none' | 'any' | 'list';
  /** The list as given (mode `list`). */
  readonly proxies: readonly string[];
  /** Whether an address (a socket's peer, an X-Forwarded-For entry) is one of the trusted proxies. */
  trusts(address: string | undefined): boolean;
}

/** The named ranges, as Express's proxy-addr defines them. */
const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** An address as compared: an IPv4 address written as IPv6 (a dual-stack socket's `::ffff:10.0.0.1`) is that IPv4 address. */
function parsed(address: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!address || !ipaddr.isValid(address) || address.includes('%')) return null;
  return ipaddr.process(address);
}

function rangeOf(entry: string): Range | null {
  if (ipaddr.isValidCIDR(entry)) {
    const [ip, bits] = ipaddr.parseCIDR(entry);
    // Addresses are compared as IPv4 when they are (see `parsed`): so is a range of IPv4-mapped ones.
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(ip as ipaddr.IPv6).toIPv4Address(), bits - 96];
    return [ip, bits];
  }
  const ip = parsed(entry);
  // Only a plain dotted IPv4 or an IPv6 address: "10.1" or "0x0a.1" would be read as some other address than meant.
  if (!ip || (ip.kind() === 'ipv4' && !ipaddr.IPv4.isValidFourPartDecimal(entry))) return null;
  return [ip, ip.kind() === 'ipv4' ? 32 : 128];
}

const NONE: ProxyTrust = { mode: 'none', proxies: [], trusts: () => false };
const ANY: ProxyTrust = { mode: 'any', proxies: [], trusts: () => true };

/** Reads TRUST_PROXY; throws an Error naming the entry that is no address, CIDR or range name. */
export function parseProxyTrust(value: string): ProxyTrust {
  const v = value.trim().toLowerCase();
  if (['', 'false', '0', 'no'].includes(v)) return NONE;
  if (['true', '1', 'yes'].includes(v)) return ANY;
  const proxies = v.split(',').map((e) => e.trim()).filter(Boolean);
  const ranges: Range[] = [];
  for (const entry of proxies) {
    const found = NAMED[entry]?.map((r) => rangeOf(r)!) ?? [rangeOf(entry)];
    if (found.some((r) => r === null)) throw new Error(`"${entry}" is no IP address, CIDR (10.0.0.0/8) or range name (loopback, linklocal, uniquelocal)`);
    ranges.push(...(found as Range[]));
  }
  return {
    mode: 'list',
    proxies,
    trusts(address) {
      const ip = parsed(address);
      return ip !== null && ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));
    },
  };
}
