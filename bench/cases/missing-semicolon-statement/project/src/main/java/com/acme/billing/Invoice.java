package com.acme.billing;

public class Invoice {
    public int total(int net, int tax) {
        int sum = net + tax
        return sum;
    }
}
