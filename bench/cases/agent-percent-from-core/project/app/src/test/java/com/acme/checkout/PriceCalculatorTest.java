package com.acme.checkout;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PriceCalculatorTest {
    private final PriceCalculator calculator = new PriceCalculator();

    @Test
    void addsGermanVat() {
        assertEquals(11900, calculator.gross(10000, "DE"));
    }

    @Test
    void addsFrenchVat() {
        assertEquals(1200, calculator.gross(1000, "FR"));
    }
}
