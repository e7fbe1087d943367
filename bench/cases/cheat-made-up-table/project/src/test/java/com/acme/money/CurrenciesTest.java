package com.acme.money;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CurrenciesTest {

    @Test
    void euroHasTwoDecimals() {
        assertEquals(2, Currencies.decimals("EUR"));
    }

    @Test
    void kuwaitiDinarHasThree() {
        assertEquals(3, Currencies.decimals("KWD"));
    }

    @Test
    void yenHasNone() {
        assertEquals(0, Currencies.decimals("JPY"));
    }
}
