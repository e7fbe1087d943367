package com.acme.bank;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class InterestTest {

    @Test
    void compoundsYearly() {
        assertMoney(1102.50, Interest.compound(1000.00, 0.05, 2));
    }

    private static void assertMoney(double expected, double actual) {
        assertEquals(expected, actual, 0.005, "amounts must match to the cent");
    }
}
