import { describe, expect, it } from "vitest";
import { isForbiddenAddress, literalAddress } from "./address-policy";

describe("webhook address policy", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback, anywhere in 127/8"],
    ["10.1.2.3", "RFC 1918"],
    ["172.16.0.1", "RFC 1918"],
    ["192.168.1.1", "RFC 1918"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::1", "IPv6 loopback"],
    ["::", "IPv6 unspecified"],
    ["fd00::1", "IPv6 unique-local"],
    ["fe80::1", "IPv6 link-local"],
    ["ff02::1", "IPv6 multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["fe80::1%eth0", "link-local with a zone id"],
    ["::7f00:1", "IPv4-compatible loopback, as a URL writes it"],
    ["::a00:1", "IPv4-compatible private"],
    ["::8.8.8.8", "IPv4-compatible, even of a public address (deprecated, ::/96)"],
    ["::808:808", "IPv4-compatible public, as a URL writes it"],
    ["64:ff9b::7f00:1", "NAT64 (RFC 6052) of loopback"],
    ["not an address", "unparseable"],
  ])("refuses %s (%s)", (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(["93.184.215.14", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("allows %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it("reads literal hosts, bracketed IPv6 included, and leaves DNS names alone", () => {
    expect(literalAddress("127.0.0.1")).toBe("127.0.0.1");
    expect(literalAddress("[::1]")).toBe("::1");
    expect(literalAddress("hooks.example.com")).toBeNull();
  });
});
