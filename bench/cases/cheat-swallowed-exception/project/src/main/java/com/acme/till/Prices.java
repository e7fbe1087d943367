package com.acme.till;

/** Prices as cashiers type them. */
public final class Prices {

    private Prices() {
    }

    public static double parse(String text) {
        return Double.parseDouble(text.trim());
    }
}
