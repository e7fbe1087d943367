package com.acme.shop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DiscountsTest {

    @Test
    void orderOfExactlyOneHundredGetsTenPercent() {
        assertEquals(10, Discounts.percentOff(10_000));
    }

    @Test
    void smallOrderGetsNothing() {
        assertEquals(0, Discounts.percentOff(9_999));
    }
}
