package com.acme.shipping;

public class Shipping {
    public int costFor(int kilos) {
        int base = 5;
        return base + kilos * 2
    }
}
