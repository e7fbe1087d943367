package com.acme.web;

public class PriceLabel {
    public String of(int cents) {
        return "EUR " + cents / 100;
    }
}
