import { generateKeyPairSync, randomBytes, sign } from "node:crypto";

/**
 * A fresh self-signed certificate for 127.0.0.1 and localhost (ECDSA P-256, valid from yesterday
 * to tomorrow), so TLS tests need no committed key and no openssl binary. node:crypto signs but
 * does not build certificates, hence the few lines of DER below (RFC 5280's TBSCertificate).
 */
export function selfSignedCertificate(commonName = "allot smtp test"): { key: string; cert: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const ecdsaWithSha256 = sequence(oid("1.2.840.10045.4.3.2"));
  const name = sequence(set(sequence(oid("2.5.4.3"), tagged(0x0c, Buffer.from(commonName, "utf8")))));
  const day = 86_400_000;
  const serial = randomBytes(8);
  serial[0] = (serial[0] ?? 0) & 0x7f; // positive
  const subjectAltName = sequence(
    tagged(0x87, Buffer.from([127, 0, 0, 1])), // iPAddress
    tagged(0x82, Buffer.from("localhost", "ascii")), // dNSName
  );
  const basicConstraints = sequence(tagged(0x01, Buffer.from([0xff]))); // cA: true
  const tbs = sequence(
    tagged(0xa0, tagged(0x02, Buffer.from([2]))), // version 3
    tagged(0x02, serial),
    ecdsaWithSha256,
    name,
    sequence(utcTime(new Date(Date.now() - day)), utcTime(new Date(Date.now() + day))),
    name,
    publicKey.export({ type: "spki", format: "der" }),
    tagged(
      0xa3,
      sequence(
        sequence(oid("2.5.29.17"), tagged(0x04, subjectAltName)),
        sequence(oid("2.5.29.19"), tagged(0x04, basicConstraints)),
      ),
    ),
  );
  const signature = sign("sha256", tbs, privateKey);
  const der = sequence(tbs, ecdsaWithSha256, tagged(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
  return {
    key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    cert: `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`,
  };
}

function tagged(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

const sequence = (...parts: Buffer[]) => tagged(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tagged(0x31, Buffer.concat(parts));

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split(".").map(Number);
  const bytes = [40 * first + second];
  for (const arc of rest) {
    const groups = [arc & 0x7f];
    for (let value = arc >> 7; value > 0; value >>= 7) groups.unshift((value & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return tagged(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const iso = date.toISOString(); // 2026-11-26T10:00:00.000Z → 261126100000Z
  const text = `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return tagged(0x17, Buffer.from(text, "ascii"));
}
