package com.acme.pricing;

import com.acme.catalog.Product;

public class Discount {
    /** Ten percent off orders of 100.00 or more. */
    public int priceAfterDiscount(Product product, int quantity) {
        int total = product.priceCents() * quantity;
        if (total > 10000) {
            return total - total / 10;
        }
        return total;
    }
}
