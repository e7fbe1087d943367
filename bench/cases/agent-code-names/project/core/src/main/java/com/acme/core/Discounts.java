package com.acme.core;

/** Discounts are whole percents: 15 means 15 % off. */
public final class Discounts {
    private Discounts() {
    }

    /** The percent off a customer tier gets: 15, 5 or nothing. */
    public static int percentOff(String tier) {
        switch (tier) {
            case "gold":
                return 15;
            case "silver":
                return 5;
            default:
                return 0;
        }
    }

    /** The amount left after taking {@code percent} percent off, in cents, rounded down. */
    public static long applyPercent(long cents, int percent) {
        return cents * (100 - percent) / 100;
    }
}
