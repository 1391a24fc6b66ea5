import { invalid } from './errors.js';

export const NAME_MAX_LENGTH = 255;

/** A display name: trimmed, 1–255 characters. `field` names it in the error. */
export function requireName(value: string, field: string): string {
  const name = value.trim();
  if (name.length === 0) throw invalid(`${field} must not be empty`);
  if (name.length > NAME_MAX_LENGTH) {
    throw invalid(`${field} must be at most ${NAME_MAX_LENGTH} characters`);
  }
  return name;
}

export { nameKey } from '../../core/names.js';
