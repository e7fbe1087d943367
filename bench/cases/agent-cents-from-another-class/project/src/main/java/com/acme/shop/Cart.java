package com.acme.shop;

import java.util.ArrayList;
import java.util.List;

public class Cart {
    private final List<Item> items = new ArrayList<>();

    public void add(Item item) {
        items.add(item);
    }

    /** What the cart costs, in cents. */
    public long totalCents() {
        long sum = 0;
        for (Item item : items) {
            sum += item.priceEuros() * item.quantity();
        }
        return sum;
    }
}
