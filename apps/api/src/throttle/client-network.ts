import ipaddr from "ipaddr.js";

/**
 * The network a client is counted as: an IPv4 address itself, the /64 of an IPv6 address (one
 * subscriber usually holds a whole /64, so counting single IPv6 addresses would let one client
 * pick a fresh counter for each request). An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, how a
 * dual-stack socket reports IPv4 clients) is its IPv4 address. Anything unparsable is kept as is.
 */
export function clientNetwork(address: string): string {
  let network = networks.get(address);
  if (network === undefined) {
    if (networks.size >= MAX_REMEMBERED) networks.clear();
    network = networkOf(address);
    networks.set(address, network);
  }
  return network;
}

// Most requests come from addresses seen moments ago: each is parsed once (bounded; cleared when full).
const MAX_REMEMBERED = 10_000;
const networks = new Map<string, string>();

function networkOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0]).toString()}/64`;
}
