package com.acme.shop;

/** Bulk discounts, in percent. */
public final class Discounts {

    private Discounts() {
    }

    public static int rate(int quantity) {
        return quantity > 100 ? 10 : 0;
    }
}
