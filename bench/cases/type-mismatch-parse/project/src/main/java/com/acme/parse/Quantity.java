package com.acme.parse;

public class Quantity {
    public int parse(String text) {
        int amount = text.trim();
        return amount;
    }
}
