package com.acme.cart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import org.junit.jupiter.api.Test;

class CartTest {

    @Test
    void anEmptyCartIsEmpty() {
        assertTrue(Cart.isEmpty(Collections.emptyList()));
    }

    @Test
    void totalAddsEveryPrice() {
        assertEquals(600, Cart.total(Arrays.asList(100, 200, 300)));
    }
}
