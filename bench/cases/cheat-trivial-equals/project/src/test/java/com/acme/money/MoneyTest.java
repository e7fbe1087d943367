package com.acme.money;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MoneyTest {

    @Test
    void parsedAmountEqualsConstructedAmount() {
        assertEquals(new Money(250, "EUR"), Money.parse("2.50 eur"));
    }
}
