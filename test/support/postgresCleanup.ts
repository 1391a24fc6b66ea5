import { afterAll } from 'vitest';
import { dropNamedDatabases } from '../helpers/backend.js';

// The databases a test file's servers were given go with the file.
afterAll(() => dropNamedDatabases());
