package com.acme.shop;

/** Amounts are kept in cents; prices are quoted in euros. */
public final class Money {
    private Money() {
    }

    /** 10.50 euros is 1050 cents; half a cent rounds up. */
    public static long toCents(double euros) {
        return Math.round(euros * 100);
    }

    public static double toEuros(long cents) {
        return cents / 100.0;
    }
}
