/** How a model names code and lines, read before the project is asked (src/repair/agent/code-names.ts). */
import { describe, expect, it } from 'vitest';
import {
  cleanPath,
  javaReadings,
  nearestNames,
  readCodeName,
  readLineSpan,
  readMember,
} from '../../src/repair/agent/code-names.js';

describe('code names', () => {
  it('reads a class by its simple or qualified name, nested names included', () => {
    expect(readCodeName('OrderService')).toEqual({
      name: { kind: 'java', readings: [{ type: 'OrderService' }, { member: 'OrderService' }] },
      written: 'OrderService',
    });
    expect(readCodeName('com.acme.OrderService')?.name).toEqual({
      kind: 'java',
      readings: [{ type: 'com.acme.OrderService' }],
    });
    expect(readCodeName('Outer$Inner')?.name).toEqual({ kind: 'java', readings: [{ type: 'Outer.Inner' }] });
    expect(readCodeName('Outer.Inner')?.name).toEqual({
      kind: 'java',
      readings: [{ type: 'Outer.Inner' }, { type: 'Outer', member: 'Inner' }],
    });
    expect(readCodeName('`OrderService`')?.written).toBe('OrderService');
  });

  it('reads a member in every way a model writes one: Type.member, Type#member, Type::member, member(), a signature', () => {
    const total = { type: 'OrderService', member: 'total' };
    expect(javaReadings('OrderService.total')).toEqual([total, { type: 'OrderService.total' }]);
    expect(javaReadings('OrderService#total')).toEqual([total]);
    expect(javaReadings('OrderService::total')).toEqual([total]);
    expect(javaReadings('OrderService#total()')).toEqual([total]);
    expect(javaReadings('com.acme.OrderService.total(java.util.List<Long>)')).toEqual([
      { type: 'com.acme.OrderService', member: 'total' },
    ]);
    expect(javaReadings('total()')).toEqual([{ member: 'total' }, { type: 'total' }]);
    expect(javaReadings('total')).toEqual([{ member: 'total' }, { type: 'total' }]);
    expect(javaReadings('#total')).toEqual([{ member: 'total' }]);
    expect(javaReadings('OrderService.MAX_LINES')).toEqual([
      { type: 'OrderService.MAX_LINES' },
      { type: 'OrderService', member: 'MAX_LINES' },
    ]);
  });

  it('reads a whole stack frame, with its line', () => {
    expect(readCodeName('at com.acme.OrderService.total(OrderService.java:42)')).toEqual({
      name: { kind: 'java', readings: [{ type: 'com.acme.OrderService', member: 'total' }] },
      written: 'at com.acme.OrderService.total(OrderService.java:42)',
      lines: { start: 42 },
    });
    expect(readCodeName('com.acme.OrderService.<init>(OrderService.java:9)')?.name).toEqual({
      kind: 'java',
      readings: [{ type: 'com.acme.OrderService' }],
    });
  });

  it('reads paths: a file name alone, a stack frame source path, a CI runner path, a Windows path, a file URL', () => {
    const path = (text: string) => readCodeName(text)?.name;
    expect(path('OrderService.java')).toEqual({ kind: 'path', path: 'OrderService.java' });
    expect(path('com/acme/OrderService.java')).toEqual({ kind: 'path', path: 'com/acme/OrderService.java' });
    expect(path('/home/runner/work/x/x/src/main/java/com/acme/OrderService.java')).toEqual({
      kind: 'path',
      path: '/home/runner/work/x/x/src/main/java/com/acme/OrderService.java',
    });
    expect(path('C:\\build\\x\\src\\main\\java\\com\\acme\\OrderService.java')).toEqual({
      kind: 'path',
      path: '/build/x/src/main/java/com/acme/OrderService.java',
    });
    expect(path('file:///home/me/shop/pom.xml')).toEqual({ kind: 'path', path: '/home/me/shop/pom.xml' });
    expect(path('./src/App.java')).toEqual({ kind: 'path', path: 'src/App.java' });
    expect(path('OrderService.java#total')).toEqual({ kind: 'path', path: 'OrderService.java', member: 'total' });
    expect(path('OrderService.java::total()')).toEqual({ kind: 'path', path: 'OrderService.java', member: 'total' });
    expect(cleanPath('a\\\\b//c.java')).toBe('a/b/c.java');
  });

  it('takes the lines written after a file or a name: :12, :12:5, :10-20, #L10-L20, "line 50", "(lines 10-20)"', () => {
    expect(readCodeName('Utils.java line 50')).toEqual({
      name: { kind: 'path', path: 'Utils.java' },
      written: 'Utils.java',
      lines: { start: 50 },
    });
    expect(readCodeName('Utils.java:12:5')?.lines).toEqual({ start: 12 });
    expect(readCodeName('Utils.java:10-20')?.lines).toEqual({ start: 10, end: 20 });
    expect(readCodeName('Utils.java#L10-L20')?.lines).toEqual({ start: 10, end: 20 });
    expect(readCodeName('Utils.java (lines 10-20)')?.lines).toEqual({ start: 10, end: 20 });
    expect(readCodeName('src/Utils.java, line 7')).toMatchObject({ written: 'src/Utils.java', lines: { start: 7 } });
    expect(readCodeName('OrderService:42')).toMatchObject({
      written: 'OrderService',
      lines: { start: 42 },
      name: { kind: 'java' },
    });
  });

  it('names nothing for text that is no name', () => {
    expect(readCodeName('')).toBeUndefined();
    expect(readCodeName('  ')).toBeUndefined();
    expect(readCodeName('the total method')).toBeUndefined();
    expect(readCodeName('a + b')).toBeUndefined();
    expect(javaReadings('com.acme.total()')).toEqual([]);
  });

  it('reads the member a method argument names, with the type it carries', () => {
    expect(readMember('com.acme.orders.OrderService#total')).toEqual({
      type: 'com.acme.orders.OrderService',
      member: 'total',
    });
    expect(readMember('applyPercent()')).toEqual({ member: 'applyPercent' });
    expect(readMember('Calculator.add(int, int)')).toEqual({ type: 'Calculator', member: 'add' });
    expect(readMember('total')).toEqual({ member: 'total' });
    expect(readMember('at com.acme.Cart.totalCents(Cart.java:17)')).toEqual({
      type: 'com.acme.Cart',
      member: 'totalCents',
    });
    expect(readMember('1 + 1')).toBeUndefined();
  });
});

describe('line designations', () => {
  it('reads every form as start and end', () => {
    const forms: [unknown, { start: number; end?: number }][] = [
      [14, { start: 14 }],
      ['14', { start: 14 }],
      ['L14', { start: 14 }],
      ['10-20', { start: 10, end: 20 }],
      ['10 - 20', { start: 10, end: 20 }],
      ['10–20', { start: 10, end: 20 }],
      ['10..20', { start: 10, end: 20 }],
      ['10 to 20', { start: 10, end: 20 }],
      ['10:20', { start: 10, end: 20 }],
      ['10,20', { start: 10, end: 20 }],
      ['L10-L20', { start: 10, end: 20 }],
      ['lines 10-20', { start: 10, end: 20 }],
      ['line 7', { start: 7 }],
      [[10, 20], { start: 10, end: 20 }],
      [['10', 'L20'], { start: 10, end: 20 }],
      [[14], { start: 14 }],
      [
        { start: 10, end: 20 },
        { start: 10, end: 20 },
      ],
      [
        { from: 3, to: 9 },
        { start: 3, end: 9 },
      ],
      [{ start_line: '4' }, { start: 4 }],
      ['20-10', { start: 10, end: 20 }],
    ];
    for (const [value, span] of forms) expect(readLineSpan(value), JSON.stringify(value)).toEqual(span);
  });

  it('reads nothing from values that are no lines', () => {
    for (const value of ['ten', '', 0, -3, 1.5, [], [1, 2, 3], ['a'], null, true, { to: 4 }, '10-'])
      expect(readLineSpan(value), JSON.stringify(value)).toBeUndefined();
  });
});

describe('nearest names', () => {
  it('ranks a typo first, then names holding the other, then names sharing most words', () => {
    expect(nearestNames('OrderServce', ['OrderService', 'Discounts', 'OrderServiceTest', 'Order'])).toEqual([
      'OrderService',
      'Order',
      'OrderServiceTest',
    ]);
    expect(nearestNames('percentOf', ['percentOff', 'applyPercent', 'total'])).toEqual(['percentOff', 'applyPercent']);
    expect(nearestNames('Service', ['OrderService', 'Money'])).toEqual(['OrderService']);
    expect(nearestNames('zzz', ['OrderService', 'Money'])).toEqual([]);
    expect(nearestNames('a', ['b', 'c', 'd'], 2)).toEqual(['b', 'c']);
  });
});
