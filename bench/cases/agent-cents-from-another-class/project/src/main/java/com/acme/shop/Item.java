package com.acme.shop;

public record Item(String name, double priceEuros, int quantity) {
}
