package com.acme.shop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ShippingTest {

    @Test
    void anEmptyParcelShipsFree() {
        assertEquals(0, Shipping.costCents(0));
    }
}
