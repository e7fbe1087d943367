/**
 * The project the reading tools' tables run on (test/helpers/agent-tool-tester.ts): a
 * calculator with its test, generated and oversized files, resources, a jar and stale
 * build output. Line numbers are written beside each line.
 */
export const CALCULATOR = [
  'package com.acme.calc;', // 1
  '', // 2
  'import java.util.ArrayList;', // 3
  'import java.util.List;', // 4
  '', // 5
  '/**', // 6
  ' * A calculator with a memory. Braces in this comment { do not } count.', // 7
  ' */', // 8
  'public class Calculator implements Operation {', // 9
  '    private final List<Integer> history = new ArrayList<>();', // 10
  '    private static final String FORMAT = "{result}";', // 11
  '', // 12
  '    public Calculator() {', // 13
  '        history.add(0);', // 14
  '    }', // 15
  '', // 16
  '    @Override', // 17
  '    public int apply(int a, int b) {', // 18
  '        return add(a, b);', // 19
  '    }', // 20
  '', // 21
  '    public int add(int a, int b) {', // 22
  '        history.add(a + b);', // 23
  '        return a + b;', // 24
  '    }', // 25
  '', // 26
  '    public double add(double a,', // 27
  '                      double b) {', // 28
  '        return a + b;', // 29
  '    }', // 30
  '', // 31
  '    @Override', // 32
  '    public String symbol() { return "+"; }', // 33
  '', // 34
  '    public String describe(int value) {', // 35
  '        String text = "value { " + value;', // 36
  '        return FORMAT.replace("{result}", text);', // 37
  '    }', // 38
  '', // 39
  '    static class Memory {', // 40
  '        private int stored;', // 41
  '', // 42
  '        void store(int value) {', // 43
  '            stored = value;', // 44
  '        }', // 45
  '', // 46
  '        int recall() { return stored; }', // 47
  '    }', // 48
  '}', // 49
];

export const OPERATION = [
  'package com.acme.calc;', // 1
  '', // 2
  '/** Something that combines two numbers. */', // 3
  'public interface Operation {', // 4
  '    int apply(int a, int b);', // 5
  '', // 6
  '    default String name() {', // 7
  '        return getClass().getSimpleName();', // 8
  '    }', // 9
  '', // 10
  '    @Deprecated', // 11
  '    String symbol()', // 12
  '        throws UnsupportedOperationException;', // 13
  '}', // 14
];

export const CALCULATOR_TEST = [
  'package com.acme.calc;', // 1
  '', // 2
  'import static org.junit.jupiter.api.Assertions.assertEquals;', // 3
  '', // 4
  'import java.nio.file.Path;', // 5
  'import org.junit.jupiter.api.DisplayName;', // 6
  'import org.junit.jupiter.api.Test;', // 7
  'import org.junit.jupiter.api.io.TempDir;', // 8
  'import org.junit.jupiter.params.ParameterizedTest;', // 9
  'import org.junit.jupiter.params.provider.ValueSource;', // 10
  '', // 11
  'class CalculatorTest {', // 12
  '    @Test', // 13
  '    @DisplayName("adds (two) numbers")', // 14
  '    void addsTwoNumbers() {', // 15
  '        assertEquals(5, new Calculator().add(2, 3));', // 16
  '    }', // 17
  '', // 18
  '    @Test', // 19
  '    void describesAValue() {', // 20
  '        assertEquals("value { 7", new Calculator().describe(7));', // 21
  '    }', // 22
  '', // 23
  '    @ParameterizedTest', // 24
  '    @ValueSource(ints = {1, 2, 3})', // 25
  '    void addsZero(int value) {', // 26
  '        assertEquals(value, new Calculator().add(value, 0));', // 27
  '    }', // 28
  '', // 29
  '    @Test', // 30
  '    void leavesNoFiles(@TempDir Path dir) {', // 31
  '        assertEquals(0, dir.toFile().list().length);', // 32
  '    }', // 33
  '}', // 34
];

export const RANGE_LINES = [
  'package com.acme.calc;', // 1
  '', // 2
  '/** A closed range of ints, like [low, high]. */', // 3
  'public record Range(int low, int high) {', // 4
  '    public Range {', // 5
  '        if (low > high) throw new IllegalArgumentException("low > high");', // 6
  '    }', // 7
  '', // 8
  '    public int width() { return high - low; }', // 9
  '', // 10
  '    interface Visitor { void visit(Range range); }', // 11
  '', // 12
  '    static final class Empty extends RuntimeException { Empty() { super("empty range"); } }', // 13
  '}', // 14
];

export const CALC = 'src/main/java/com/acme/calc/Calculator.java';
export const RANGE = 'src/main/java/com/acme/calc/Range.java';
export const OP = 'src/main/java/com/acme/calc/Operation.java';
export const TEST = 'src/test/java/com/acme/calc/CalculatorTest.java';
export const GENERATED = 'src/main/java/com/acme/gen/Generated.java';
export const BIG = 'src/main/java/com/acme/gen/BigMethod.java';

/** 300 one-line methods: value1() on line 4 to value300() on line 303. */
export const GENERATED_LINES = [
  'package com.acme.gen;',
  '',
  'public class Generated {',
  ...Array.from({ length: 300 }, (_, i) => `    public int value${i + 1}() { return ${i + 1}; }`),
  '}',
];
/** sum() runs from line 4 to line 407. */
export const BIG_LINES = [
  'package com.acme.gen;',
  '',
  'public class BigMethod {',
  '    public int sum() {',
  '        int total = 0;',
  ...Array.from({ length: 400 }, (_, i) => `        total += ${i + 1};`),
  '        return total;',
  '    }',
  '}',
];

export const row = (lines: readonly string[], n: number) => `${String(n).padStart(4)}| ${lines[n - 1]}`;
export const rows = (lines: readonly string[], from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => row(lines, from + i)).join('\n');
export const numbersFile = Array.from({ length: 400 }, (_, i) => String(i + 1));
export const wideFile = Array.from({ length: 200 }, () => 'x'.repeat(100));

/** Beside the project folder: what a path that leaves the project would read. */
export const OUTSIDE = { 'secret.txt': 'password=hunter2\n' };

export const PROJECT: Record<string, string> = {
  'pom.xml':
    '<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.acme</groupId>\n  <artifactId>calc</artifactId>\n  <version>1.0</version>\n</project>\n',
  [CALC]: `${CALCULATOR.join('\n')}\n`,
  [OP]: `${OPERATION.join('\n')}\n`,
  [TEST]: `${CALCULATOR_TEST.join('\n')}\n`,
  [RANGE]: `${RANGE_LINES.join('\n')}\n`,
  [GENERATED]: `${GENERATED_LINES.join('\n')}\n`,
  [BIG]: `${BIG_LINES.join('\n')}\n`,
  'src/main/resources/numbers.txt': `${numbersFile.join('\n')}\n`,
  'src/main/resources/wide.txt': `${wideFile.join('\n')}\n`,
  'src/main/resources/notes.txt': Array.from({ length: 60 }, (_, i) => `TODO item ${i + 1}\n`).join(''),
  'src/main/resources/app.properties': 'greeting=hello\r\ntarget=world\r\n',
  'src/main/resources/static/app.min.js': `var calc={add:function(a,b){return a+b}};${'/*pad*/'.repeat(200)}\n`,
  'lib/helper.jar': 'PK\u0003\u0004\u0000\u0000com/acme/calc/Calculator.class\u0000',
  // Build output is not part of the project's sources.
  'target/classes/com/acme/calc/Calculator.java': 'class Stale { void add() {} }\n',
  ...Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`modules/m${i + 1}/README.md`, `# module ${i + 1}\n`])),
};
