package com.acme.billing;

/** German VAT, 19 %, rounded half up to the cent. */
public final class Vat {

    private Vat() {
    }

    public static long gross(long netCents) {
        return netCents * 119 / 100;
    }
}
