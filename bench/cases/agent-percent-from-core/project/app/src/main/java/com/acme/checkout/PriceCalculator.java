package com.acme.checkout;

import com.acme.tax.TaxRates;

public class PriceCalculator {
    /** Gross price in cents: the net price plus VAT. */
    public long gross(long netCents, String country) {
        return netCents + netCents * TaxRates.rateFor(country);
    }
}
