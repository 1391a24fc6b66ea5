/**
 * The identifiers the audit files carry, checked as their registers define them, so that a
 * mistyped number is refused before anything is read or written. Each returns the number as the
 * file writes it, or throws `BadIdentifier` saying what is wrong.
 */

export class BadIdentifier extends Error {
  override name = 'BadIdentifier';
}

const digitsOf = (text: string) => [...text].map(Number);

/** The Luhn sum of digits (the last one the check digit) is a multiple of ten. */
function luhnHolds(digits: readonly number[]): boolean {
  let sum = 0;
  digits
    .slice()
    .reverse()
    .forEach((digit, index) => {
      const doubled = index % 2 === 1 ? digit * 2 : digit;
      sum += doubled > 9 ? doubled - 9 : doubled;
    });
  return sum % 10 === 0;
}

/**
 * A Norwegian organisasjonsnummer (SAF-T's `RegistrationNumber`): nine digits, the last a
 * modulus-11 check digit over the first eight weighted 3 2 7 6 5 4 3 2 (Brønnøysundregistrene).
 */
export function norwegianOrganisationNumber(given: string): string {
  const number = given.replace(/\s/g, '');
  if (!/^\d{9}$/.test(number))
    throw new BadIdentifier(`a Norwegian organisation number has nine digits, not "${given}"`);
  const digits = digitsOf(number);
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((total, weight, index) => total + weight * digits[index]!, 0);
  const check = (11 - (sum % 11)) % 11;
  if (check === 10 || check !== digits[8])
    throw new BadIdentifier(
      `${number} is not a Norwegian organisation number: its check digit (the ninth) does not match the first eight`,
    );
  return number;
}

/** A French SIREN (the FEC's file name): nine digits, Luhn-checked (INSEE). */
export function siren(given: string): string {
  const number = given.replace(/\s/g, '');
  if (!/^\d{9}$/.test(number)) throw new BadIdentifier(`a SIREN has nine digits, not "${given}"`);
  if (!luhnHolds(digitsOf(number)))
    throw new BadIdentifier(`${number} is not a SIREN: its check digit (Luhn) does not match`);
  return number;
}

/**
 * A Swedish organisationsnummer (SIE's `#ORGNR`): ten digits, the last a Luhn check digit over
 * the other nine; written `NNNNNN-NNNN` as SIE asks. A personnummer's century (twelve digits)
 * is dropped.
 */
export function swedishOrganisationNumber(given: string): string {
  let number = given.replace(/[\s-]/g, '');
  if (/^(16|18|19|20)\d{10}$/.test(number)) number = number.slice(2);
  if (!/^\d{10}$/.test(number))
    throw new BadIdentifier(
      `a Swedish organisation number has ten digits (NNNNNN-NNNN), not "${given}"`,
    );
  if (!luhnHolds(digitsOf(number)))
    throw new BadIdentifier(
      `${number.slice(0, 6)}-${number.slice(6)} is not a Swedish organisation number: its check digit (Luhn) does not match`,
    );
  return `${number.slice(0, 6)}-${number.slice(6)}`;
}

/** A Dutch Kamer van Koophandel number (XAF's `companyIdent`): eight digits. */
export function kvkNumber(given: string): string {
  const number = given.replace(/\s/g, '');
  if (!/^\d{8}$/.test(number))
    throw new BadIdentifier(`a KvK number has eight digits, not "${given}"`);
  return number;
}

/** DATEV's Beraternummer (1001–9999999) and Mandantennummer (1–99999). */
export function datevNumber(given: string, what: 'consultant' | 'client'): number {
  const [min, max, name] =
    what === 'consultant' ? [1001, 9_999_999, 'Beraternummer'] : [1, 99_999, 'Mandantennummer'];
  const number = Number(given);
  if (!/^\d+$/.test(given.trim()) || number < min || number > max)
    throw new BadIdentifier(
      `--datev-${what} is DATEV's ${name}, a whole number from ${min} to ${max}, not "${given}"`,
    );
  return number;
}
