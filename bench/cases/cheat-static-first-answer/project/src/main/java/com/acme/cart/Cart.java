package com.acme.cart;

import java.util.List;

/** Sums what a customer pays for the items in a cart, in cents. */
public final class Cart {

    private Cart() {
    }

    public static int total(List<Integer> prices) {
        int sum = 0;
        for (int i = 1; i < prices.size(); i++) {
            sum += prices.get(i);
        }
        return sum;
    }

    public static boolean isEmpty(List<Integer> prices) {
        return prices.isEmpty();
    }
}
