package com.acme.shop;

public class Cart {
    public int total(int[] prices) {
        int total = 0;
        for (int price : prices) {
            totl += price;
        }
        return total;
    }
}
