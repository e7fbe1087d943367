package com.acme.weather;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Shared assertions of the weather tests. */
public final class Approx {

    public static final double EPSILON = 1e-6;

    private Approx() {
    }

    public static void assertNear(double expected, double actual) {
        assertTrue(Math.abs(expected - actual) <= EPSILON, () -> "expected " + expected + " but was " + actual);
    }
}
