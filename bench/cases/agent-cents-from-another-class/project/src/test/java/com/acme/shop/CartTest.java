package com.acme.shop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CartTest {
    private Cart cart;

    @BeforeEach
    void setUp() {
        cart = new Cart();
        cart.add(new Item("coffee", 3.25, 2));
        cart.add(new Item("cake", 4.00, 1));
    }

    @Test
    void totalIsInCents() {
        assertEquals(1050, cart.totalCents());
    }

    @Test
    void emptyCartCostsNothing() {
        assertEquals(0, new Cart().totalCents());
    }
}
