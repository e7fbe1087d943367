package com.acme.shop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CartTest {

    @Test
    void sumsPrices() {
        assertEquals(6, new Cart().total(new int[] {1, 2, 3}));
    }
}
