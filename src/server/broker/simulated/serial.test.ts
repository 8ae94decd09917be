import { describe, expect, it } from 'vitest';
import { Serial } from './serial.ts';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('the market step queue', () => {
  it('runs steps one at a time, in order', async () => {
    const serial = new Serial();
    const log: string[] = [];
    const step = (name: string) => serial.run(async () => {
      log.push(`${name} starts`);
      await tick();
      log.push(`${name} ends`);
    });
    await Promise.all([step('A'), step('B')]);
    expect(log).toEqual(['A starts', 'A ends', 'B starts', 'B ends']);
  });

  it('runs a step started inside a step at once (an order placed by a trade listener)', async () => {
    const serial = new Serial();
    const log: string[] = [];
    await serial.run(async () => {
      log.push('A starts');
      await serial.run(async () => {
        log.push('nested');
      });
      log.push('A ends');
    });
    expect(log).toEqual(['A starts', 'nested', 'A ends']);
  });

  it('queues what a step starts outside itself (a timer set by a listener) behind it', async () => {
    const serial = new Serial();
    const log: string[] = [];
    let later: Promise<void> | undefined;
    await serial.run(async () => {
      log.push('A starts');
      serial.outside(() => {
        setTimeout(() => {
          later = serial.run(async () => {
            log.push('B runs');
          });
        }, 0);
      });
      await tick();
      await tick();
      log.push('A ends');
    });
    await tick();
    await later;
    expect(log).toEqual(['A starts', 'A ends', 'B runs']);
  });

  it('goes on after a failed step', async () => {
    const serial = new Serial();
    await expect(serial.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(serial.run(async () => 42)).resolves.toBe(42);
  });
});
