package com.acme.tax;

import java.util.Map;

/** VAT rates by country code. */
public final class TaxRates {
    private static final Map<String, Integer> PERCENT = Map.of("DE", 19, "FR", 20, "LU", 17);

    private TaxRates() {
    }

    /** The rate in percent: 19 for Germany. */
    public static int rateFor(String country) {
        Integer rate = PERCENT.get(country);
        if (rate == null) {
            throw new IllegalArgumentException("no VAT rate for " + country);
        }
        return rate;
    }
}
