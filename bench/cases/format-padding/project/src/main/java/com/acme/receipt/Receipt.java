package com.acme.receipt;

public class Receipt {
    public String line(String item, int cents) {
        return item + ": " + (cents / 100) + "." + (cents % 100);
    }
}
