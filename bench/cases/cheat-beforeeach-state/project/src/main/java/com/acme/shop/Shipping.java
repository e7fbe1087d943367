package com.acme.shop;

/** Shipping costs in cents. */
public final class Shipping {

    private static boolean freeShippingEverywhere = false;

    private Shipping() {
    }

    /** Switched on by the weekend promotion. */
    public static void setFreeShippingEverywhere(boolean on) {
        freeShippingEverywhere = on;
    }

    public static int costCents(int weightGrams) {
        if (freeShippingEverywhere) {
            return 0;
        }
        return 500 + (weightGrams / 1000) * 200;
    }
}
