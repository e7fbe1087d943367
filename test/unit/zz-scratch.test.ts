import { it } from 'vitest';
import { parseJava, fieldsOf, superTypesOf, typeParametersOf, callReceivers, qualifyTypeName, typeHeaderOf } from '../../src/java/index.js';
it('scratch', () => {
  const r = parseJava(`package com.acme;
import java.util.List;
import com.acme.money.Money;
public class A<T> extends B<C> implements I, J<K> {
  private final List<String> a = x, b[];
  static int c;
  private final Helper helper = new Helper();
  void f(int p, Foo q) {
    Foo x = new Foo();
    var y = new Bar<>();
    x.m(y); this.helper.r(); Money.format(1); y.z(); q.w(); helper.h().k(); g(); new Baz().run(); super.s();
    for (Item item : items) { item.size(); }
    try { } catch (IOException e) { e.getMessage(); }
  }
}
record R(int a, String b) {}
enum E { ONE, TWO; int n; }`);
  if (!r.ok) throw new Error(r.error.message);
  const [a, rec, e] = r.file.types;
  console.log(fieldsOf(a!).map(f => [f.name, f.type, f.modifiers.join(' ')]));
  console.log(superTypesOf(a!), typeParametersOf(a!), typeHeaderOf(a!));
  console.log(fieldsOf(rec!).map(f => [f.name, f.type, f.kind]), fieldsOf(e!).map(f => [f.name, f.type, f.kind]));
  console.log(callReceivers(a!.methods[0]!, a!, { memberType: (t, m, n) => (t === 'Helper' && m === 'h' ? 'Hub' : undefined) }).map(c => [c.call.name, c.typeName, c.isStatic, c.onSelf]));
  console.log(qualifyTypeName('List<String>', r.file, () => false), qualifyTypeName('Money', r.file, () => true), qualifyTypeName('Foo', r.file, (q) => q === 'com.acme.Foo'), qualifyTypeName('R', r.file, () => false));
});
