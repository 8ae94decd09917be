import { describe, expect, it } from 'vitest';
import { replay } from '#shared/domain/round-trips.ts';
import { fixture } from '../../../../tests/fixtures/ibkr/files.ts';
import { familyOf, kindOf } from './corporate-actions.ts';
import { parseFlex } from './flex.ts';

/* The CorporateActions section over self-made files (tests/fixtures/ibkr); figures worked out by hand. */

const statementOf = (name: string) => parseFlex(fixture(name), name).statements[0];

describe("an action's rows and kind, told from their description", () => {
  it('drops the last bracket, the row’s own instrument, so that both rows of one action match', () => {
    expect(familyOf('GCM(CA38501D2041) SPLIT 1 FOR 25 (GCM.OLD, GRAN COLOMBIA GOLD CORP, CA38501D2041)')).toBe(
      familyOf('GCM(CA38501D2041) SPLIT 1 FOR 25 (GCM, GRAN COLOMBIA GOLD CORP, CA38501D5010)'),
    );
  });

  it('reads the kind from IB’s type code, else from the words of the description', () => {
    expect(kindOf('RS', '')).toBe('split');
    expect(kindOf('', 'GCM(CA38501D2041) SPLIT 1 FOR 25')).toBe('split');
    expect(kindOf(undefined, 'UUU(CA91701P1053) TENDERED TO CA91701P1TN3 1 FOR 1')).toBe('tender');
    expect(kindOf(undefined, 'UUU.TEN2(CA91701P1TN3) MERGED(VOLUNTARY OFFER ALLOCATION) FOR CAD 2.86000000 PER SHARE')).toBe('merger');
    expect(kindOf(undefined, 'PAR(US0000015001) SPINOFF 1 FOR 10')).toBe('spinoff');
    expect(kindOf(undefined, 'ABC(US0000000001) NAME CHANGE')).toBe('other');
  });
});

describe('a spin-off (spinoff.xml)', () => {
  const statement = statementOf('spinoff.xml');

  it('books the new shares as arriving from the parent the description names, at no share of its cost', () => {
    const action = statement?.events.find((e) => e.kind === 'corporate_action');
    expect(action).toMatchObject({
      action: 'spinoff',
      position: 15001,
      symbol: 'PAR',
      quantity: 0,
      into: { position: 15002, symbol: 'KID', quantity: 10, costShare: 0 },
    });
  });

  it('leaves the parent’s 100 shares and cost where they were and opens 10 KID', () => {
    const { open } = replay(0, statement?.events ?? [], () => 'Equities');
    expect(open.get(15001)).toMatchObject({ quantity: 100, value: 5000 });
    expect(open.get(15002)).toMatchObject({ quantity: 10, value: 0, symbol: 'KID' });
  });
});

describe('a reverse split under one contract id (reverse-split.xml)', () => {
  const statement = statementOf('reverse-split.xml');

  it('pairs the 1000 shares leaving with the 100 arriving under the same conid', () => {
    const action = statement?.events.find((e) => e.kind === 'corporate_action');
    expect(action).toMatchObject({ action: 'split', position: 16001, quantity: -1000, into: { position: 16001, quantity: 100 } });
  });

  it('leaves 100 shares holding the whole cost of 1000', () => {
    // The round-trip engine used to delete the position it had just moved the shares into when both
    // are the same (src/shared/domain/round-trips.ts, corporateAction): fixed there.
    const { open, trips } = replay(0, statement?.events ?? [], () => 'Equities');
    expect(trips).toEqual([]);
    expect(open.get(16001)).toMatchObject({ quantity: 100, value: 1000, commission: -2 });
  });
});
