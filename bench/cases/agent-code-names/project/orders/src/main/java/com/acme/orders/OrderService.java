package com.acme.orders;

import com.acme.core.Discounts;
import java.util.List;

public class OrderService {
    private final String tier;

    public OrderService(String tier) {
        this.tier = tier;
    }

    /** What the customer pays for these line prices, in cents, after the tier's discount. */
    public long total(List<Long> lineCents) {
        long sum = 0;
        for (long cents : lineCents) {
            sum += cents;
        }
        return sum - Discounts.percentOff(tier);
    }
}
