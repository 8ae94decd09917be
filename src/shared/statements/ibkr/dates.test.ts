import { describe, expect, it } from 'vitest';
import { fixture } from '../../../../tests/fixtures/ibkr/files.ts';
import { readMoment, SlashEvidence } from './dates.ts';
import { parseFlex } from './flex.ts';

/* Every date shape a Flex Query writes, read as the statement's own clock (epoch seconds as if UTC). */

const at = (iso: string) => Date.parse(`${iso}Z`) / 1000;

describe('reading a date and time', () => {
  it.each([
    ['20240105;093000', '2024-01-05T09:30:00'],
    ['20240106 10:15:30', '2024-01-06T10:15:30'],
    ['2024-01-07', '2024-01-07T00:00:00'],
    ['2024-01-08, 11:00:00', '2024-01-08T11:00:00'],
    ['2024-01-09;12:30:45', '2024-01-09T12:30:45'],
    ['2024-01-09T12:30:45', '2024-01-09T12:30:45'],
    ['10-Jan-24', '2024-01-10T00:00:00'],
    ['13-Jan-24 07:05:09', '2024-01-13T07:05:09'],
    ['20240111', '2024-01-11T00:00:00'],
    ['20240111;101500 EST', '2024-01-11T10:15:00'],
  ])('reads %s as %s', (value, iso) => {
    expect(readMoment(value, null)).toMatchObject({ day: iso.slice(0, 10), at: at(iso) });
  });

  it('takes the time from tradeTime when the date has none', () => {
    expect(readMoment('20240112', null, '134500')).toEqual({ day: '2024-01-12', at: at('2024-01-12T13:45:00') });
  });

  it('reads slash dates in the order the file has shown', () => {
    expect(readMoment('03/04/2024', 'month-first')?.day).toBe('2024-03-04');
    expect(readMoment('03/04/2024;10:00:00', 'day-first')).toMatchObject({ day: '2024-04-03', at: at('2024-04-03T10:00:00') });
    expect(readMoment('03/04/24', 'day-first')?.day).toBe('2024-04-03');
    // Without an order the reader never guesses.
    expect(readMoment('03/04/2024', null)).toBeUndefined();
  });

  it("returns null for IB's no-date values and undefined for what is no date", () => {
    for (const none of ['', '--', 'MULTI', 'N/A', undefined]) expect(readMoment(none, null)).toBeNull();
    for (const bad of ['20240231', '2024-13-01', '31-Foo-24', 'yesterday', '20240105;256000', '20240105x']) expect(readMoment(bad, null)).toBeUndefined();
  });

  it('tells the slash order from a part above 12, and refuses a file that never shows it', () => {
    const dayFirst = new SlashEvidence();
    for (const value of ['01/02/2024', '25/02/2024;10:00:00']) dayFirst.look(value);
    expect(dayFirst.order()).toBe('day-first');
    const monthFirst = new SlashEvidence();
    for (const value of ['01/02/2024', '02/25/2024']) monthFirst.look(value);
    expect(monthFirst.order()).toBe('month-first');
    const none = new SlashEvidence();
    none.look('CASH RECEIPT / DISBURSEMENT / TRANSFER');
    expect(none.order()).toBeNull();
    const both = new SlashEvidence();
    for (const value of ['25/02/2024', '02/25/2024']) both.look(value);
    expect(() => both.order()).toThrow(/some dates as dd\/MM\/yyyy and others as MM\/dd\/yyyy/);
  });
});

describe('the date shapes of whole files', () => {
  it('reads every shape of date-shapes.xml, tradeDate with tradeTime among them', () => {
    const [statement] = parseFlex(fixture('date-shapes.xml')).statements;
    expect(statement?.from).toBe('2024-01-01');
    expect(statement?.to).toBe('2024-01-31');
    expect(statement?.events.map((e) => [e.ref, e.at])).toEqual([
      [7001, at('2024-01-05T09:30:00')],
      [7002, at('2024-01-06T10:15:30')],
      [7003, at('2024-01-07T00:00:00')],
      [7004, at('2024-01-08T11:00:00')],
      [7005, at('2024-01-09T12:30:45')],
      [7006, at('2024-01-10T00:00:00')],
      [7007, at('2024-01-11T00:00:00')],
      [7101, at('2024-01-12T13:45:00')],
      [7008, at('2024-01-13T07:05:09')],
    ]);
  });

  it('reads MM/dd/yyyy once a date shows it (01/31/2024) and dd/MM/yyyy once one shows that (31/01/2024)', () => {
    for (const name of ['dates-month-first.xml', 'dates-day-first.xml']) {
      const [statement] = parseFlex(fixture(name), name).statements;
      expect([statement?.from, statement?.to]).toEqual(['2024-01-01', '2024-01-31']);
      expect(statement?.events.map((e) => e.at)).toEqual([at('2024-01-05T09:30:00'), at('2024-01-06T00:00:00')]);
    }
  });

  it('refuses a file whose slash dates all read both ways, saying how to fix the query', () => {
    expect(() => parseFlex(fixture('dates-ambiguous.xml'), 'dates-ambiguous.xml')).toThrow(
      /no date in it tells which: every day and month is 12 or less.*set the Flex Query's Date Format to yyyyMMdd/,
    );
  });
});
