package com.acme.shop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DiscountsTest {

    @Test
    void bigOrdersGetTen() {
        assertEquals(10, Discounts.rate(150));
    }

    @Test
    void smallOrdersGetNone() {
        assertEquals(0, Discounts.rate(10));
    }

    @Test
    void fiftyPiecesGetFive() {
        assertEquals(5, Discounts.rate(50));
    }
}
