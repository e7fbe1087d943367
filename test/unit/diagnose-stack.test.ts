import { describe, expect, it } from 'vitest';
import {
  analyseStackTrace,
  condenseStackTrace,
  fullFrames,
  parseStackTrace,
  rootCauseIndex,
} from '../../src/diagnose/stack.js';
import { testCaseDiagnostic, type CollectedCase } from '../../src/diagnose/test-reports.js';

// The shape jackson-modules-java8 gives: the test calls writeValueAsString, databind wraps the NPE.
const JACKSON = [
  'com.fasterxml.jackson.databind.JsonMappingException: (was java.lang.NullPointerException) (through reference chain: com.fasterxml.jackson.datatype.jdk8.OptionalIntTest$Holder["value"])',
  '\tat com.fasterxml.jackson.databind.JsonMappingException.wrapWithPath(JsonMappingException.java:402)',
  '\tat com.fasterxml.jackson.databind.ser.std.StdSerializer.wrapAndThrow(StdSerializer.java:323)',
  '\tat com.fasterxml.jackson.databind.ObjectMapper.writeValueAsString(ObjectMapper.java:3964)',
  '\tat com.fasterxml.jackson.datatype.jdk8.OptionalIntTest.testSerialize(OptionalIntTest.java:31)',
  '\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)',
  '\tat org.junit.platform.commons.util.ReflectionUtils.invokeMethod(ReflectionUtils.java:728)',
  'Caused by: java.lang.NullPointerException: Cannot invoke "java.util.OptionalInt.isPresent()" because "value" is null',
  '\tat com.fasterxml.jackson.datatype.jdk8.OptionalIntSerializer.serialize(OptionalIntSerializer.java:45)',
  '\tat com.fasterxml.jackson.datatype.jdk8.OptionalIntSerializer.serialize(OptionalIntSerializer.java:18)',
  '\tat com.fasterxml.jackson.databind.ser.BeanPropertyWriter.serializeAsField(BeanPropertyWriter.java:732)',
  '\t... 4 more',
];

const inProject = (className: string) => className.startsWith('com.fasterxml.jackson.datatype.jdk8.');
const resolve = (frame: { className: string; fileName?: string }) =>
  inProject(frame.className)
    ? `src/${frame.className.endsWith('Test') || frame.className.includes('Test$') ? 'test' : 'main'}/java/${frame.className.replace(/\$.*/, '').replace(/\./g, '/')}.java`
    : undefined;

describe('parseStackTrace', () => {
  it('reads the throwable and its cause, with the frames each prints and how many it shares', () => {
    const sections = parseStackTrace(JACKSON);
    expect(sections.map((s) => [s.kind, s.depth, s.frames.length, s.omitted])).toEqual([
      ['top', 0, 6, 0],
      ['caused-by', 0, 3, 4],
    ]);
    expect(rootCauseIndex(sections)).toBe(1);
    // "... 4 more": the cause shares the last 4 frames of the trace it caused.
    expect(fullFrames(sections, 1).map((f) => f.frame.method)).toEqual([
      'serialize',
      'serialize',
      'serializeAsField',
      'writeValueAsString',
      'testSerialize',
      'invoke0',
      'invokeMethod',
    ]);
  });

  it('keeps suppressed failures and their causes apart from the main chain', () => {
    const lines = [
      'java.lang.IllegalStateException: close failed',
      '\tat com.acme.Pool.close(Pool.java:40)',
      '\tat com.acme.PoolTest.closes(PoolTest.java:12)',
      '\tSuppressed: java.io.IOException: disk',
      '\t\tat com.acme.Disk.flush(Disk.java:9)',
      '\t\t... 1 more',
      '\tCaused by: java.lang.ArithmeticException: / by zero',
      '\t\tat com.acme.Disk.ratio(Disk.java:20)',
      '\t\t... 2 more',
      'Caused by: java.lang.NullPointerException: pool is empty',
      '\tat com.acme.Pool.drain(Pool.java:55)',
      '\t... 2 more',
    ];
    const sections = parseStackTrace(lines);
    expect(sections.map((s) => [s.kind, s.depth, s.enclosing])).toEqual([
      ['top', 0, undefined],
      ['suppressed', 1, 0],
      ['caused-by', 1, 1],
      ['caused-by', 0, 0],
    ]);
    // The root cause is the main chain's last cause, not the suppressed one's.
    expect(sections[rootCauseIndex(sections)]!.header).toBe('java.lang.NullPointerException: pool is empty');
    expect(fullFrames(sections, 2).map((f) => `${f.frame.className}.${f.frame.method}`)).toEqual([
      'com.acme.Disk.ratio',
      'com.acme.Disk.flush',
      'com.acme.PoolTest.closes',
    ]);
  });

  it('joins a message over several lines into the header', () => {
    const sections = parseStackTrace([
      'org.opentest4j.AssertionFailedError: expected: <a',
      'b> but was: <a',
      'c>',
      '\tat com.acme.T.t(T.java:3)',
    ]);
    expect(sections[0]!.header).toBe('org.opentest4j.AssertionFailedError: expected: <a\nb> but was: <a\nc>');
    expect(parseStackTrace(['', ''])).toEqual([]);
  });
});

describe('analyseStackTrace', () => {
  it('takes the deepest project frame of the root cause as the primary location, not the test frame at the top', () => {
    const chain = analyseStackTrace(JACKSON, resolve);
    expect(chain.primary?.frame).toMatchObject({
      className: 'com.fasterxml.jackson.datatype.jdk8.OptionalIntSerializer',
      line: 45,
    });
    expect(chain.projectFrames.map((f) => `${f.frame.method}:${f.frame.line}`)).toEqual([
      'serialize:45',
      'serialize:18',
      'testSerialize:31',
    ]);
  });

  it('falls back to the first project frame of any section when the root cause has none', () => {
    const chain = analyseStackTrace(
      [
        'java.lang.RuntimeException: x',
        '\tat com.fasterxml.jackson.datatype.jdk8.A.run(A.java:3)',
        'Caused by: java.io.IOException: y',
        '\tat java.io.File.open(File.java:1)',
      ],
      resolve,
    );
    expect(chain.primary?.frame.className).toBe('com.fasterxml.jackson.datatype.jdk8.A');
  });
});

describe('condenseStackTrace', () => {
  it('keeps every header and project frame, folding runs of framework frames into one line', () => {
    const text = condenseStackTrace(JACKSON, (frame) => inProject(frame.className));
    expect(text.split('\n')).toEqual([
      JACKSON[0],
      '\t... 3 framework frames (com.fasterxml.jackson.databind.JsonMappingException.wrapWithPath ... com.fasterxml.jackson.databind.ObjectMapper.writeValueAsString)',
      '\tat com.fasterxml.jackson.datatype.jdk8.OptionalIntTest.testSerialize(OptionalIntTest.java:31)',
      '\t... 2 framework frames (jdk.internal.reflect.NativeMethodAccessorImpl.invoke0 ... org.junit.platform.commons.util.ReflectionUtils.invokeMethod)',
      JACKSON[7],
      JACKSON[8],
      JACKSON[9],
      JACKSON[10],
      '\t... 4 more',
    ]);
  });

  it('caps a huge trace, dropping framework lines before project frames and never a header', () => {
    const lines = ['java.lang.StackOverflowError'];
    for (let i = 0; i < 200; i++)
      lines.push(`\tat com.acme.Loop.step(Loop.java:${i})`, `\tat org.lib.Call.run(Call.java:${i})`);
    lines.push('Caused by: java.lang.IllegalStateException: deep');
    const text = condenseStackTrace(lines, (frame) => frame.className.startsWith('com.acme'));
    expect(text.split('\n').length).toBeLessThanOrEqual(81);
    expect(text).toContain('java.lang.StackOverflowError');
    expect(text).toContain('Caused by: java.lang.IllegalStateException: deep');
    expect(text).toContain('... (stack trace cut at 80 lines)');
  });
});

describe('testCaseDiagnostic', () => {
  it('points a wrapped exception at its root cause and lists the call path', () => {
    const c: CollectedCase = {
      className: 'com.fasterxml.jackson.datatype.jdk8.OptionalIntTest',
      method: 'testSerialize',
      reportedName: 'testSerialize',
      status: 'error',
      failure: {
        outcome: 'error',
        type: 'com.fasterxml.jackson.databind.JsonMappingException',
        message: '(was java.lang.NullPointerException)',
        stackTrace: JACKSON.join('\n'),
      },
      moduleDir: '',
      reportFile: 'target/surefire-reports/TEST-x.xml',
    };
    const d = testCaseDiagnostic(c, resolve);
    expect(d.file).toBe('src/main/java/com/fasterxml/jackson/datatype/jdk8/OptionalIntSerializer.java');
    expect(d.line).toBe(45);
    expect(d.testFailure?.rootCause).toBe(
      'java.lang.NullPointerException: Cannot invoke "java.util.OptionalInt.isPresent()" because "value" is null',
    );
    expect(d.testFailure?.frames?.map((f) => `${f.method}:${f.line}`)).toEqual([
      'serialize:45',
      'serialize:18',
      'testSerialize:31',
    ]);
    expect(d.testFailure?.stackTrace).toContain('OptionalIntSerializer.serialize(OptionalIntSerializer.java:45)');
  });
});
