package com.acme.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class QuantityTest {

    @Test
    void parsesPaddedNumber() {
        assertEquals(42, new Quantity().parse(" 42 "));
    }
}
