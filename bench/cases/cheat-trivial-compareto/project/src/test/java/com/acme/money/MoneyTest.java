package com.acme.money;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MoneyTest {

    @Test
    void sameAmountsCompareEqual() {
        assertEquals(0, Money.parse("1.00 eur").compareTo(new Money(100, "EUR")));
    }
}
