import currencyCodes from "currency-codes";

/*
 * ISO 4217 for /currencies/ and for validating account currencies.
 *
 * Current codes (list one) come from `currency-codes`, which is kept up to date with the ISO
 * maintenance agency's list. No npm package we could install keeps list three (historic codes), so
 * the withdrawn codes are listed here and named by the runtime's CLDR data
 * (`Intl.DisplayNames`); a code CLDR cannot name is left out rather than given a made-up name.
 * A historic code that is still current in `currency-codes` counts as current (it wins).
 */

export interface CurrencyEntry {
  code: string;
  name: string;
  /** ISO's three-digit code; null for historic currencies. */
  numeric: string | null;
}

// ISO 4217 list three (withdrawn codes), plus ANG and CUC, which are being withdrawn: a code still
// current in currency-codes is skipped here, so it keeps its numeric code until the package drops it.
const HISTORIC_CODES = `
  ADP AFA ALK ANG AOK AON AOR ARA ARP ARY ATS AYM AZM BAD BEC BEF
  BEL BGJ BGK BGL BOP BRB BRC BRE BRN BRR BUK BYB BYR CHC CSD CSJ
  CSK CUC CYP DDM DEM ECS ECV EEK ESA ESB ESP FIM FRF GEK GHC GHP
  GNE GNS GQE GRD GWE GWP HRD HRK IEP ILP ILR ISJ ITL LAJ LSM LTL
  LTT LUC LUF LUL LVL LVR MGF MLF MRO MTL MTP MVQ MXP MZE MZM NIC
  NLG PEH PEI PES PLZ PTE RHD ROK ROL RUR SDD SDP SIT SKK SLL SRG
  STD SUR TJR TMM TPE TRL UAK UGS UGW USS UYN UYP VEB VEF VNC XEU
  XFO XFU XRE YDD YUD YUM YUN ZAL ZMK ZRN ZRZ ZWC ZWD ZWL ZWN ZWR
`
  .trim()
  .split(/\s+/);

const active = new Set(currencyCodes.codes());

function buildList(): CurrencyEntry[] {
  const current = currencyCodes.data.map((c) => ({
    code: c.code,
    name: c.currency,
    numeric: c.number || null,
  }));
  const names = new Intl.DisplayNames(["en"], { type: "currency", fallback: "none" });
  const historic = HISTORIC_CODES.filter((code) => !active.has(code)).flatMap((code) => {
    const name = names.of(code);
    return name ? [{ code, name, numeric: null }] : [];
  });
  return [...current, ...historic].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

const all: readonly CurrencyEntry[] = Object.freeze(buildList());

/** Every ISO 4217 currency we can name, current and historic, sorted by code. */
export const listCurrencies = (): CurrencyEntry[] => all.map((entry) => ({ ...entry }));

/** Is this a current ISO 4217 code (list one)? Accounts and banks accept only these. */
export const isActiveCurrency = (code: string) => active.has(code);
