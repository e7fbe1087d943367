package com.acme.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DiscountTest {

    @Test
    void discountsAtThreshold() {
        assertEquals(9000, new Discount().priceAfterDiscount(new com.acme.catalog.Product("pen", 2500), 4));
    }

    @Test
    void noDiscountBelow() {
        assertEquals(9900, new Discount().priceAfterDiscount(new com.acme.catalog.Product("pen", 3300), 3));
    }
}
