/**
 * How a class's members and supertypes read in the API difference: one member as a
 * signature line, and what changed in a class's hierarchy and abstract methods (for
 * "does not override abstract method" and a replaced hierarchy). Pure.
 */
import { isStatic, type ClassInfo, type ClassMember } from '../../maven/class-file.js';
import type { JarApi } from '../../maven/jar-api.js';

export const short = (type: string) => type.replace(/\b(?:[a-z_][\w]*\.)+(?=[A-Z])/g, '').replace(/\$/g, '.');

export function describeMember(owner: string, member: ClassMember): string {
  const statik = isStatic(member.access) ? 'static ' : '';
  const where = short(owner);
  if (member.kind === 'field') return `${statik}${short(member.type)} ${where}.${member.name}`;
  const parameters = member.parameters.map(short).join(', ');
  if (member.kind === 'constructor') return `${where}(${parameters})`;
  return `${statik}${short(member.type)} ${where}.${member.name}(${parameters})`;
}

export function hierarchyLines(before: ClassInfo, after: ClassInfo | undefined): string[] {
  if (!after) return [];
  const out: string[] = [];
  if ((before.superName ?? '') !== (after.superName ?? ''))
    out.push(`~ superclass: ${before.superName ?? 'none'} -> ${after.superName ?? 'none'}`);
  if (before.interfaces.join() !== after.interfaces.join())
    out.push(`~ interfaces: [${before.interfaces.join(', ')}] -> [${after.interfaces.join(', ')}]`);
  return out;
}

/** The supertypes of a class and how they changed: for "does not override abstract method" and a replaced hierarchy. */
export function typeDifference(name: string, oldApi: JarApi | undefined, newApi: JarApi): string[] {
  const after = newApi.classes.get(name);
  const before = oldApi?.classes.get(name);
  if (!after) return [];
  const lines = before ? hierarchyLines(before, after) : [];
  const abstract = after.members.filter(
    (member) =>
      member.kind === 'method' &&
      (member.access & 0x0400) !== 0 &&
      !before?.members.some((known) => known.name === member.name && known.descriptor === member.descriptor),
  );
  for (const member of abstract) lines.push(`+ added abstract: ${describeMember(name, member)}`);
  const gone =
    before?.members.filter(
      (member) =>
        member.kind === 'method' &&
        !after.members.some((known) => known.name === member.name && known.descriptor === member.descriptor),
    ) ?? [];
  for (const member of gone) lines.push(`- removed: ${describeMember(name, member)}`);
  return lines;
}
