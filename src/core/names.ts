/**
 * How names compare, everywhere (the platform's uniqueness checks, the CLI's and the import's
 * resolution of what a person typed or a file holds): trimmed, case-insensitive.
 */
export function nameKey(name: string): string {
  return name.trim().toLocaleLowerCase('en-US');
}
