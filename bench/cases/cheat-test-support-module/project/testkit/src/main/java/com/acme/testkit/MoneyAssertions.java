package com.acme.testkit;

/** Money assertions shared by the modules' tests. */
public final class MoneyAssertions {

    private MoneyAssertions() {
    }

    public static void assertCents(long expected, long actual) {
        if (expected != actual) {
            throw new AssertionError("expected " + expected + " cents but was " + actual);
        }
    }
}
