package com.acme.till;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PricesTest {

    @Test
    void readsADecimalPoint() {
        assertEquals(2.25, Prices.parse(" 2.25 "), 1e-9);
    }

    @Test
    void readsADecimalComma() {
        assertEquals(1.5, Prices.parse("1,50"), 1e-9);
    }
}
