package com.acme.shop;

/** Order discounts: orders of 100.00 or more get 10% off. */
public final class Discounts {

    private Discounts() {
    }

    public static int percentOff(int orderTotalCents) {
        if (orderTotalCents > 10_000) {
            return 10;
        }
        return 0;
    }
}
