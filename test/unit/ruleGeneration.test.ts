import { describe, expect, it } from 'vitest';
import {
  commonText,
  descriptionKey,
  generateRules,
  learningLinesOf,
  learningText,
  learningWindow,
} from '../../src/platform/domain/ruleGeneration.js';

describe('description keys', () => {
  it.each([
    ['UBER *TRIP 8XJ2', 'uber trip'],
    ['UBER *TRIP 99KD', 'uber trip'],
    ['AMZN Mktp US*2K4LM1', 'amzn mktp us'],
    ['AMZN Mktp US*9Z1QQ3', 'amzn mktp us'],
    ['SQ *BLUE BOTTLE 0142', 'blue bottle'],
    ['SQ *BLUE BOTTLE 0077', 'blue bottle'],
    ["TST* Joe's Pizza #22", 'joe s pizza'],
    ['Shell Oil 57442', 'shell oil'],
    ['  ', ''],
    ['#1234 5678', ''],
  ])('%j → %j', (description, key) => {
    expect(descriptionKey(description)).toBe(key);
  });
});

describe('common text', () => {
  it('keeps whole words shared by every description', () => {
    expect(commonText(['UBER *TRIP 8XJ2', 'uber *trip 99KD'])).toBe('uber *trip');
    expect(commonText(['SQ *BLUE BOTTLE 0142', 'SQ *BLUE BOTTLE 0077'])).toBe('sq *blue bottle');
    expect(commonText(['AMZN Mktp US*2K4LM1', 'AMZN Mktp US*9Z1QQ3'])).toBe('amzn mktp');
    expect(commonText(['ab', 'cd'])).toBe('');
  });
});

describe('generateRules', () => {
  it('makes one rule per group of at least two lines, assigning the most used account', () => {
    const rules = generateRules([
      { description: 'UBER *TRIP 8XJ2', accountId: 'travel' },
      { description: 'UBER *TRIP 99KD', accountId: 'travel' },
      { description: 'UBER *TRIP 77AA', accountId: 'meals' },
      { description: 'SQ *BLUE BOTTLE 0142', accountId: 'meals' },
      { description: 'SQ *BLUE BOTTLE 0077', accountId: 'meals' },
      { description: 'AMZN Mktp US*2K4LM1', accountId: 'supplies' },
      { description: 'Landlord LLC', accountId: 'rent' },
    ]);
    expect(rules).toMatchObject([
      { contains: 'uber *trip', accountId: 'travel', support: 3 },
      { contains: 'sq *blue bottle', accountId: 'meals', support: 2 },
    ]);
  });

  it('breaks a tie by the account seen first', () => {
    const rules = generateRules([
      { description: 'Shell Oil 1', accountId: 'fuel' },
      { description: 'Shell Oil 2', accountId: 'travel' },
    ]);
    expect(rules).toMatchObject([{ contains: 'shell oil', accountId: 'fuel', support: 2 }]);
  });

  it('reads the lines once, as they come, taking the memo when a line has no description', () => {
    function* rows() {
      for (let i = 0; i < 50_000; i += 1)
        yield { description: `SQ *ORDER ${i}`, memo: null, accountId: i % 3 ? 'sales' : 'fees' };
      yield { description: ' ', memo: 'Monthly rent', accountId: 'rent' };
      yield { description: '', memo: 'Monthly rent', accountId: 'rent' };
      yield { description: '', memo: null, accountId: 'rent' };
    }
    expect(generateRules(learningLinesOf(rows()))).toMatchObject([
      { contains: 'sq *order', accountId: 'sales', support: 50_000 },
      { contains: 'monthly rent', accountId: 'rent', support: 2 },
    ]);
  });
});

describe('what the generator reads', () => {
  it('the year before the bookkeeping start date', () => {
    expect(learningWindow('2026-01-01')).toEqual({ from: '2025-01-01', before: '2026-01-01' });
    expect(learningWindow('2024-02-29')).toEqual({ from: '2023-02-28', before: '2024-02-29' });
  });
  it('the description, else a memo of at most 1,024 bytes', () => {
    expect(learningText('UBER', 'memo')).toBe('UBER');
    expect(learningText(' ', 'Monthly rent')).toBe('Monthly rent');
    expect(learningText('', 'é'.repeat(512))).toBe('é'.repeat(512));
    expect(learningText('', 'é'.repeat(513))).toBe('');
    expect(learningText('', null)).toBe('');
  });
});
