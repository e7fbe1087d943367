package com.acme.catalog;

public record Product(String name, int priceCents) {}
