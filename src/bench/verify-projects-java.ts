/**
 * The Java side of the verification benchmark's projects: the model of a generated class
 * (a factor, an offset and the class it builds on), the integer formulas its tests expect,
 * computed here exactly as the Java code computes them, and the source text of each class,
 * its test class and the module's `Operation` interface.
 */

import type { ModuleSpec } from './verify-projects-types.js';

const MODULUS = 10007;

export interface ClassModel {
  module: string;
  pkg: string;
  name: string;
  factor: number;
  offset: number;
  /** The class this one builds on, if any. */
  dep?: ClassModel;
  tested: boolean;
}

const floorMod = (value: number, modulus: number) => ((value % modulus) + modulus) % modulus;

function applyOf(model: ClassModel, x: number): number {
  const base = model.dep ? applyOf(model.dep, x) : floorMod(x, MODULUS);
  return floorMod(base * model.factor + model.offset, MODULUS);
}

function sumRangeOf(model: ClassModel, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += applyOf(model, i) % 97;
  return sum;
}

function describeOf(model: ClassModel, x: number): string {
  return `${model.name}(${x})=${applyOf(model, x)}`;
}

export function javaPath(module: ModuleSpec, kind: 'main' | 'test', pkg: string, name: string): string {
  const prefix = module.dir === '' ? '' : `${module.dir}/`;
  return `${prefix}src/${kind}/java/${pkg.replace(/\./g, '/')}/${name}.java`;
}

export function operationInterface(pkg: string): string {
  return `package ${pkg};

/** A step of a computation: every generated class is one. */
public interface Operation {
    int apply(int x);

    default String label() {
        return getClass().getSimpleName();
    }
}
`;
}

function depField(model: ClassModel): { imports: string; call: string } {
  if (!model.dep) return { imports: '', call: `Math.floorMod(x, ${MODULUS})` };
  const imports = model.dep.pkg === model.pkg ? '' : `import ${model.dep.pkg}.${model.dep.name};\n`;
  return { imports, call: `new ${model.dep.name}().apply(x)` };
}

/** The one line a bug changes: keep it exactly this shape. */
export const applyLine = (sign: string, offsetName = 'offset') =>
  `        return Math.floorMod(base * factor ${sign} ${offsetName}, MODULUS);`;

export function mainClass(model: ClassModel): string {
  const { imports, call } = depField(model);
  return `package ${model.pkg};

${imports}import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * ${model.name}: one step of the ${model.module || 'project'} computations.
 */
public final class ${model.name} implements Operation {
    private static final int MODULUS = ${MODULUS};

    private final int factor;
    private final int offset;

    public ${model.name}() {
        this(${model.factor}, ${model.offset});
    }

    public ${model.name}(int factor, int offset) {
        if (factor <= 0) {
            throw new IllegalArgumentException("factor must be positive: " + factor);
        }
        this.factor = factor;
        this.offset = offset;
    }

    public int factor() {
        return factor;
    }

    public int offset() {
        return offset;
    }

    @Override
    public int apply(int x) {
        int base = ${call};
${applyLine('+')}
    }

    public List<Integer> applyAll(List<Integer> values) {
        List<Integer> result = new ArrayList<>(values.size());
        for (Integer value : values) {
            result.add(apply(Objects.requireNonNull(value, "value")));
        }
        return Collections.unmodifiableList(result);
    }

    public int sumRange(int n) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            sum += apply(i) % 97;
        }
        return sum;
    }

    public int largest(List<Integer> values) {
        int best = Integer.MIN_VALUE;
        for (int value : applyAll(values)) {
            best = Math.max(best, value);
        }
        return best;
    }

    public String describe(int x) {
        return "${model.name}(" + x + ")=" + apply(x);
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof ${model.name})) {
            return false;
        }
        ${model.name} that = (${model.name}) other;
        return factor == that.factor && offset == that.offset;
    }

    @Override
    public int hashCode() {
        return Objects.hash(factor, offset);
    }

    @Override
    public String toString() {
        return "${model.name}{factor=" + factor + ", offset=" + offset + "}";
    }
}
`;
}

export const TESTS_PER_CLASS = 5;

export function testClass(model: ClassModel, call = 'apply'): string {
  const values = [1, 2, 3];
  return `package ${model.pkg};

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ${model.name}Test {
    private final ${model.name} operation = new ${model.name}();

    @Test
    void appliesToASmallValue() {
        assertEquals(${applyOf(model, 3)}, operation.${call}(3));
    }

    @Test
    void appliesToALargeValue() {
        assertEquals(${applyOf(model, 123456)}, operation.apply(123456));
    }

    @Test
    void appliesToEveryValue() {
        assertEquals(List.of(${values.map((v) => applyOf(model, v)).join(', ')}), operation.applyAll(List.of(${values.join(', ')})));
    }

    @Test
    void sumsARange() {
        assertEquals(${sumRangeOf(model, 50)}, operation.sumRange(50));
    }

    @Test
    void describesItselfAndRefusesABadFactor() {
        assertEquals("${describeOf(model, 7)}", operation.describe(7));
        assertThrows(IllegalArgumentException.class, () -> new ${model.name}(0, 1));
    }
}
`;
}
