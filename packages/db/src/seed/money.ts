/** ISO 4217 currency and a rough units-per-US-dollar rate, so prices look local. */
const CURRENCIES: Readonly<Record<string, readonly [currency: string, perUsd: number]>> = {
  US: ["USD", 1],
  IN: ["INR", 83],
  GB: ["GBP", 0.79],
  CN: ["CNY", 7.2],
  JP: ["JPY", 150],
  KR: ["KRW", 1350],
  TW: ["TWD", 32],
  HK: ["HKD", 7.8],
  SG: ["SGD", 1.35],
  PK: ["PKR", 280],
  BD: ["BDT", 110],
  NP: ["NPR", 133],
  MX: ["MXN", 17],
  AR: ["ARS", 900],
  CO: ["COP", 4000],
  PE: ["PEN", 3.7],
  CL: ["CLP", 930],
  BR: ["BRL", 5],
  RU: ["RUB", 92],
  UA: ["UAH", 40],
  BY: ["BYN", 3.2],
  KZ: ["KZT", 450],
  UZ: ["UZS", 12500],
  TR: ["TRY", 32],
  EG: ["EGP", 48],
  SA: ["SAR", 3.75],
  AE: ["AED", 3.67],
  IQ: ["IQD", 1310],
  IR: ["IRR", 42000],
  MA: ["MAD", 10],
  DZ: ["DZD", 135],
  NG: ["NGN", 1500],
  GH: ["GHS", 15],
  KE: ["KES", 130],
  ET: ["ETB", 57],
  TZ: ["TZS", 2600],
  ZA: ["ZAR", 18.5],
  ID: ["IDR", 16000],
  TH: ["THB", 36],
  VN: ["VND", 25000],
  PH: ["PHP", 57],
  MY: ["MYR", 4.7],
  AU: ["AUD", 1.5],
  CA: ["CAD", 1.36],
  SE: ["SEK", 10.5],
  PL: ["PLN", 4],
  HU: ["HUF", 360],
  RO: ["RON", 4.6],
  DE: ["EUR", 0.92],
  FR: ["EUR", 0.92],
  IT: ["EUR", 0.92],
  ES: ["EUR", 0.92],
  AT: ["EUR", 0.92],
  NL: ["EUR", 0.92],
  PT: ["EUR", 0.92],
  BE: ["EUR", 0.92],
};

export function currencyFor(countryCode: string): { currency: string; perUsd: number } {
  const [currency, perUsd] = CURRENCIES[countryCode] ?? ["USD", 1];
  return { currency, perUsd };
}

/** A shop-window price as an exact decimal string: 1463.2 -> "1499.00", 42.3 -> "45.00", 4.2 -> "4.50". */
export function priceString(amount: number): string {
  if (amount < 10) return (Math.ceil(amount * 2) / 2).toFixed(2);
  const step = 10 ** (Math.floor(Math.log10(amount)) - 1);
  const rounded = Math.ceil(amount / step) * step;
  return (rounded >= 100 ? rounded - 1 : rounded).toFixed(2);
}
