import { Slots } from '@server/lib/slots';

/** A piece of work that runs until `finish` is called. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => done, finish };
}

describe('slots for one kind of work', () => {
  it('runs as many at once as it has slots, the next in order as each ends', async () => {
    const slots = new Slots(2, 5_000, () => new Error('too busy'));
    const order: string[] = [];
    const [a, b] = [held(), held()];
    const first = slots.run(async () => (await a.work(), order.push('a')));
    const second = slots.run(async () => (await b.work(), order.push('b')));
    const third = slots.run(async () => order.push('c'));
    const fourth = slots.run(async () => order.push('d'));
    await Promise.resolve();
    expect(order).toEqual([]);
    // b's slot passes to c, then to d, in the order they came; a still holds the other.
    b.finish();
    await Promise.all([second, third, fourth]);
    expect(order).toEqual(['b', 'c', 'd']);
    a.finish();
    await first;
    expect(order).toEqual(['b', 'c', 'd', 'a']);
  });

  it('fails a run that waited its whole time with what tooBusy makes, and frees nothing it never had', async () => {
    const slots = new Slots(1, 50, () => new Error('too busy'));
    const a = held();
    const first = slots.run(a.work);
    await expect(slots.run(async () => 'never')).rejects.toThrow('too busy');
    a.finish();
    await first;
    // Still one slot, not two: two runs at once take turns.
    const [b, c] = [held(), held()];
    const running: string[] = [];
    const second = slots.run(async () => (running.push('b'), await b.work()));
    const third = slots.run(async () => (running.push('c'), await c.work()));
    await Promise.resolve();
    expect(running).toEqual(['b']);
    b.finish();
    await second;
    c.finish();
    await third;
    expect(running).toEqual(['b', 'c']);
  });
});
