package com.acme.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ShippingTest {

    @Test
    void chargesPerKilo() {
        assertEquals(11, new Shipping().costFor(3));
    }

    @Test
    void formatsCents() {
        assertEquals("1.05", com.acme.money.Cents.format(105));
    }
}
