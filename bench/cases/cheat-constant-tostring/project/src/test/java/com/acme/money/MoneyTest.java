package com.acme.money;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MoneyTest {

    @Test
    void printsTwoDecimals() {
        assertEquals("2.05 EUR", new Money(205, "EUR").toString());
    }
}
