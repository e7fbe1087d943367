package com.acme.legacy;

/** The old shop's order service, kept until its last client moves to the orders module. */
@Deprecated
public class OrderService {
    /** The sum of the line prices, in cents; the old shop had no discounts. */
    public long total(long[] lineCents) {
        long sum = 0;
        for (long cents : lineCents) {
            sum += cents;
        }
        return sum;
    }
}
